import type { EngineHealth } from "../model/alert-control.ts";
import type { DeploymentSize } from "../model/plan-governor.ts";
import {
  type CycleTimes,
  cycleStoreDue,
  type Fresher,
  type RegistryEntry,
  type ShardSummary,
  SqlRegistryDirectory,
} from "./registry-directory.ts";
import { type ClockRow, type LegacyPart, splitByTeam, teamOfName } from "./registry-legacy.ts";

const NO_CYCLE: CycleTimes = { firstCycleAt: null, lastCycleAt: null, lastSuccessAt: null };

/**
 * The root registry object's part (src/objects/registry-object.ts): the directory of shards,
 * the cron's cycle times, and what is left of the single registry of before. What it keeps in
 * memory (the cron's exact times, successes newer than the directory's rows) lives as long as
 * the object; the cron's call each minute keeps it alive (#35: docs/architecture.md "Rows
 * written per run").
 */
export class RegistryRoot {
  readonly #storage: DurableObjectStorage;
  /** The directory's successes newer than its rows (src/objects/registry-directory.ts). */
  readonly #fresher = new Map<string, Fresher>();
  /** The cron's times, exact; and as stored (`cycleStoreDue`). */
  #cycle: CycleTimes | undefined;
  #cycleStored: CycleTimes | undefined;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  async #get<T>(key: string, fallback: T): Promise<T> {
    return ((await this.#storage.get<T>(key)) ?? fallback) as T;
  }

  directory(): SqlRegistryDirectory {
    return new SqlRegistryDirectory(this.#storage.sql, this.#fresher);
  }

  /**
   * The root's table of before: one row per subscription of every team, with its lease (the
   * subscriptions themselves are its storage's `index`). Read only to hand each team its part.
   */
  #legacySql(): SqlStorage {
    const sql = this.#storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS clock (name TEXT PRIMARY KEY, until INTEGER NOT NULL,
      status TEXT, at TEXT, failing_since TEXT, overdue INTEGER NOT NULL DEFAULT 0)`);
    return sql;
  }

  /** A shard's summary noted; the subscriptions of every team, which the clock's pace follows. */
  noteShard(summary: ShardSummary): DeploymentSize {
    const directory = this.directory();
    directory.note(summary);
    return directory.size();
  }

  /**
   * The start of a watchdog cycle: the teams whose shard has work due (every team with `all`),
   * and the next teams' parts of the registry of before, for the cron to hand over.
   */
  async dueShards(
    at: string,
    options: { all?: boolean; limit: number },
  ): Promise<{ teams: string[]; legacy: LegacyPart[] }> {
    return {
      teams: this.directory().due(Date.parse(at), options.limit, options.all),
      legacy: await this.#legacyParts(),
    };
  }

  async #legacyIndex(): Promise<Record<string, RegistryEntry>> {
    return this.#get<Record<string, RegistryEntry>>("index", {});
  }

  async #legacyParts(): Promise<LegacyPart[]> {
    const index = await this.#legacyIndex();
    const digests = await this.#get<Record<string, string>>("digests", {});
    if (Object.keys(index).length === 0 && Object.keys(digests).length === 0) return [];
    return splitByTeam(index, digests, this.#legacySql().exec<ClockRow>("SELECT * FROM clock").toArray());
  }

  /** The teams whose part of the registry of before their shard now has leave it. */
  async #forgetAdopted(teams: string[]): Promise<void> {
    const adopted = new Set(teams);
    const index = await this.#legacyIndex();
    const digests = await this.#get<Record<string, string>>("digests", {});
    for (const [name, entry] of Object.entries(index)) {
      if (!adopted.has(entry.ref.teamId)) continue;
      delete index[name];
      this.#legacySql().exec("DELETE FROM clock WHERE name = ?", name);
    }
    for (const name of Object.keys(digests)) if (adopted.has(teamOfName(name))) delete digests[name];
    if (Object.keys(index).length > 0) await this.#storage.put("index", index);
    else await this.#storage.delete(["index", "leasesSeeded", "workspace"]);
    if (Object.keys(digests).length > 0) await this.#storage.put("digests", digests);
    else await this.#storage.delete("digests");
  }

  /**
   * The end of a watchdog cycle: its times (a cycle succeeded when one of its polls did, or when
   * nothing is subscribed anywhere), stored every other minute (`cycleStoreDue`), and the teams
   * whose part of the registry of before their shard now has.
   */
  async endCycle(at: string, options: { polledOk: boolean; adopted: string[] }): Promise<void> {
    if (options.adopted.length > 0) await this.#forgetAdopted(options.adopted);
    const meta = await this.cycleTimes();
    const succeeded = options.polledOk || this.directory().size().subscriptions === 0;
    const next: CycleTimes = {
      firstCycleAt: meta.firstCycleAt ?? at,
      lastCycleAt: at,
      lastSuccessAt: succeeded ? at : meta.lastSuccessAt,
    };
    this.#cycle = next;
    if (cycleStoreDue(this.#cycleStored ?? NO_CYCLE, next)) {
      await this.#storage.put("cycle", next);
      this.#cycleStored = next;
    }
  }

  /** The cron's times: exact from memory, or as stored (at most CYCLE_STORE_MS behind). */
  async cycleTimes(): Promise<CycleTimes> {
    this.#cycleStored ??= await this.#get<CycleTimes>("cycle", NO_CYCLE);
    return this.#cycle ?? this.#cycleStored;
  }

  /** Every team's figures added up, for `GET /health`: one query here, no shard called. */
  async totals(): Promise<EngineHealth> {
    const cycle = await this.cycleTimes();
    const sum = this.directory().totals();
    const lastSuccessAt =
      [cycle.lastSuccessAt, sum.lastSuccessAt]
        .filter((t): t is string => t !== null)
        .sort()
        .at(-1) ?? null;
    return { ...sum, firstCycleAt: cycle.firstCycleAt, lastCycleAt: cycle.lastCycleAt, lastSuccessAt };
  }
}
