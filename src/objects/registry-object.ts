import { DurableObject } from "cloudflare:workers";
import type { Config, Env } from "../config.ts";
import type { EngineHealth, SubscriptionRef } from "../model/alert-control.ts";
import type { DeploymentSize } from "../model/plan-governor.ts";
import { keys } from "../store/keys.ts";
import { describeError } from "../util/describe-error.ts";
import { copyKey, kvScopeOf, registryDirectory, shardTeamOf } from "./addresses.ts";
import { configOrNull } from "./object-clock.ts";
import {
  type CycleTimes,
  heardStoreDue,
  publishDue,
  type RegistryEntry,
  type ShardSummary,
  summaryToTell,
  type WorkspaceCondition,
} from "./registry-directory.ts";
import type { LegacyPart } from "./registry-legacy.ts";
import { RegistryRoot } from "./registry-root.ts";
import { TeamClock } from "./team-clock.ts";

export type { CycleTimes, LegacyPart, RegistryEntry, WorkspaceCondition };

const CHANNELS_EVER = "channels-ever";
/** What a shard last told the directory, and the deployment's size the directory answered. */
const HEARD = "heard";
type Heard = { told: ShardSummary | null; everywhere: number; teams?: number };

import type { PollSummary } from "../model/poll-result.ts";

/**
 * The registry, one instance per Slack team (a **shard**, `registry:<teamId>`, see
 * src/objects/addresses.ts) plus one root (`registry`) that is the **directory** of shards.
 *
 * A shard is the one writer of its team's subscription index, digest timetable, watchdog leases
 * and health figures: KV has no compare-and-swap, so two subscribes editing one index key would
 * lose an entry; here they run one after the other, and one team's load never reaches another
 * team's shard. It tells the directory its summary (when the cron must look at it, its figures)
 * only when that would otherwise be wrong (`publishDue`), never on every poll.
 *
 * The directory (src/objects/registry-directory.ts) is what the cron reads first, and what
 * `/health` adds up; it also keeps the cron's cycle times, and what is left of the single
 * registry of before (`LegacyPart`), handed out to the shards by the cron.
 */
export class RegistryObject extends DurableObject<Env> {
  /**
   * The summary the directory has of this shard (as far as this shard knows), and the
   * subscriptions of every team as the directory last said (src/model/plan-governor.ts); and
   * what of it is stored (`heardStoreDue`).
   */
  #heard: Heard | undefined;
  #heardStored: Heard | undefined;
  /** The index by lease time is dropped once per instance (#35: it cost a row per renewal). */
  #leasesReady = false;
  /** The root's part, kept with what it holds in memory. */
  readonly #root = new RegistryRoot(this.ctx.storage);

  async #get<T>(key: string, fallback: T): Promise<T> {
    return ((await this.ctx.storage.get<T>(key)) ?? fallback) as T;
  }

  /**
   * A shard's table: one row per subscription of its team (its ref: the shard's index), with how
   * its last reported poll went and its lease. Made again when missing (a test's deleteAll drops
   * it under a live instance). No index by lease time: each renewal wrote a row in it too, and
   * the only reader, the watchdog's `WHERE until <= ?`, runs only when the directory says the
   * shard is due, reading the team's rows, as every report's `#summary` already does (#35).
   */
  #sql(): SqlStorage {
    const sql = this.ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, ref TEXT NOT NULL,
      until INTEGER NOT NULL, status TEXT, at TEXT, failing_since TEXT, overdue INTEGER NOT NULL DEFAULT 0)`);
    if (!this.#leasesReady) sql.exec("DROP INDEX IF EXISTS leases_until");
    this.#leasesReady = true;
    return sql;
  }

  /** This shard's team (null in the root). */
  get #team(): string | null {
    return shardTeamOf(this.ctx.id.name ?? "");
  }

  #has(name: string): boolean {
    return this.#sql().exec("SELECT 1 FROM leases WHERE name = ?", name).toArray().length > 0;
  }

  #entries(where = "", ...args: (string | number)[]): RegistryEntry[] {
    return this.#sql()
      .exec<{ name: string; ref: string }>(`SELECT name, ref FROM leases ${where}`, ...args)
      .toArray()
      .map((r) => ({ name: r.name, ref: JSON.parse(r.ref) as SubscriptionRef }));
  }

  /** The team's readable index in KV (for `/decipher list` of before and the Home's channels). */
  async #mirror(): Promise<void> {
    const copy = this.#entries()
      .map((e) => copyKey(this.env, e.ref))
      .sort();
    await this.env.STATE.put(
      keys.subscriptionIndex(kvScopeOf(this.env, this.#team ?? undefined)),
      JSON.stringify(copy),
    );
  }

  // ── A team's shard ──────────────────────────────────────────────────────────────────────

  /** What the directory should know of this shard now. */
  async #summary(teamId: string): Promise<ShardSummary> {
    const row = this.#sql()
      .exec<{
        n: number;
        first: number | null;
        f: number | null;
        p: number | null;
        o: number | null;
        last: string | null;
      }>(
        `SELECT COUNT(*) AS n, MIN(until) AS first, SUM(status IN ('erroring', 'failing')) AS f, SUM(status = 'paused') AS p,
         SUM(overdue) AS o, MAX(CASE WHEN status = 'ok' THEN at END) AS last FROM leases`,
      )
      .one();
    const digests = Object.values(await this.#get<Record<string, string>>("digests", {})).map((d) =>
      Date.parse(d),
    );
    const times = [...(row.first === null ? [] : [row.first]), ...digests];
    return {
      teamId,
      checkAt: times.length > 0 ? Math.min(...times) : null,
      subscriptions: row.n,
      erroring: row.f ?? 0,
      paused: row.p ?? 0,
      overdue: row.o ?? 0,
      lastSuccessAt: row.last,
      workspace: await this.#get<WorkspaceCondition>("workspace", null),
      seq: Date.now(),
    };
  }

  /**
   * Tells the directory this shard's summary when it must (src/objects/registry-directory.ts):
   * a failure to tell is tried again at the shard's next change or lease renewal.
   */
  async #publish(at = Date.now()): Promise<ShardSummary | null> {
    const teamId = this.#team;
    if (!teamId) return null;
    const now = await this.#summary(teamId);
    const { told } = await this.#heardNow();
    if (!publishDue(told, now, at)) return now;
    try {
      const tell = summaryToTell(told, now, at);
      const size = await registryDirectory(this.env).noteShard(tell);
      const everywhere = size.subscriptions;
      const heard = { told: tell, everywhere, teams: size.teams };
      this.#heard = heard;
      if (heardStoreDue(this.#heardStored ?? { told: null, everywhere: 0 }, tell, everywhere)) {
        await this.ctx.storage.put(HEARD, heard);
        this.#heardStored = heard;
      }
    } catch (error) {
      console.error(`registry shard ${teamId}: directory not told (${describeError(error)})`);
    }
    return now;
  }

  /** What this shard last told the directory: in memory, else as stored (before #35, in two keys). */
  async #heardNow(): Promise<Heard> {
    if (this.#heard) return this.#heard;
    const stored = (await this.#get<Heard | null>(HEARD, null)) ?? {
      told: await this.#get<ShardSummary | null>("told", null),
      everywhere: await this.#get<number>("everywhere", 0),
    };
    this.#heardStored = stored;
    this.#heard = stored;
    return stored;
  }

  /** Adds a subscription; its lease starts now, so the watchdog wakes it if its clock never starts. */
  async add(entry: RegistryEntry, until = Date.now()): Promise<void> {
    const known = this.#has(entry.name);
    this.#sql().exec(
      `INSERT INTO leases (name, ref, until) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET until = excluded.until`,
      entry.name,
      JSON.stringify(entry.ref),
      until,
    );
    if (!known) {
      await this.#mirror();
      await this.#noteChannel(entry.ref.channelId);
    }
    await this.#publish();
  }

  /**
   * Every channel the team ever subscribed in, kept after its subscriptions go: an uninstall
   * must find each channel's object (its outage window, decisions, outbox) though nothing is
   * subscribed there any more (src/objects/tenancy.ts `purgeTeam`).
   */
  async #noteChannel(channelId: string): Promise<void> {
    const ever = await this.#get<string[]>(CHANNELS_EVER, []);
    if (!ever.includes(channelId)) await this.ctx.storage.put(CHANNELS_EVER, [...ever, channelId]);
  }

  async channelsEver(): Promise<string[]> {
    return this.#get<string[]>(CHANNELS_EVER, []);
  }

  async remove(name: string): Promise<void> {
    if (this.#has(name)) {
      this.#sql().exec("DELETE FROM leases WHERE name = ?", name);
      await this.#mirror();
    }
    await this.#publish();
  }

  async list(): Promise<RegistryEntry[]> {
    return this.#entries();
  }

  /** The channel objects' digest times: the cron wakes only those that are due. */
  async setDigestDue(channelName: string, nextDueAt: string | null): Promise<void> {
    const due = await this.#get<Record<string, string>>("digests", {});
    if (nextDueAt === null) {
      if (!(channelName in due)) return;
      delete due[channelName];
    } else {
      if (due[channelName] === nextDueAt) return;
      due[channelName] = nextDueAt;
    }
    await this.ctx.storage.put("digests", due);
    await this.#publish();
  }

  /**
   * What one watchdog cycle has to do in this team: the subscriptions whose lease has passed
   * (all of them when `all`, the clock kept by the cron alone), and the channels whose digest
   * is due.
   */
  async beginCycle(
    at: string,
    options: { all?: boolean; limit?: number } = {},
  ): Promise<{ entries: RegistryEntry[]; dueDigests: string[] }> {
    const due = await this.#get<Record<string, string>>("digests", {});
    const now = Date.parse(at);
    const entries = options.all
      ? this.#entries()
      : this.#entries("WHERE until <= ? ORDER BY until LIMIT ?", now, options.limit ?? 1_000);
    // Nothing due after all (leases renewed since the directory heard): it hears the later time.
    await this.#publish(now);
    return {
      entries,
      dueDigests: Object.entries(due)
        .filter(([, dueAt]) => Date.parse(dueAt) <= now)
        .map(([name]) => name),
    };
  }

  /** How a poll went, for a subscription of this shard (none other gets a row). */
  #record(s: PollSummary, until: number | null): void {
    this.#sql().exec(
      `UPDATE leases SET until = COALESCE(?, until), status = ?, at = ?, failing_since = ?, overdue = ?
       WHERE name = ?`,
      until,
      s.status,
      s.at,
      s.erroringSince,
      s.overdue ?? 0,
      s.name,
    );
  }

  /**
   * Results of polls the cron ran itself in this team (the watchdog's, or every poll when it
   * keeps the clock alone): one write per subscription that answered.
   */
  async recordPolls(at: string, summaries: PollSummary[]): Promise<void> {
    let gone = false;
    for (const s of summaries) {
      if (s.status === "busy") continue;
      if (s.status === "waiting") {
        // A poll held back (a Slack backoff) still read its ledger: what is overdue shows meanwhile.
        this.#sql().exec("UPDATE leases SET overdue = ? WHERE name = ?", s.overdue ?? 0, s.name);
        continue;
      }
      if (s.status === "gone" && this.#has(s.name)) {
        this.#sql().exec("DELETE FROM leases WHERE name = ?", s.name);
        gone = true;
      } else this.#record(s, null);
    }
    if (gone) await this.#mirror();
    await this.#publish(Date.parse(at));
  }

  /**
   * An object's own report, sent when its state changed or its lease is due for renewal (never
   * on every poll): how its poll went, and the time by which it will have polled again. The
   * answer: how many subscriptions the deployment has, as far as this shard knows, for the
   * object's pace (src/model/plan-governor.ts).
   */
  async report(summary: PollSummary, until: number): Promise<DeploymentSize> {
    if (!this.#has(summary.name)) return { subscriptions: 0, teams: 1 };
    this.#record(summary, until);
    const team = (await this.#publish())?.subscriptions ?? 0;
    const heard = await this.#heardNow();
    return { subscriptions: Math.max(team, heard.everywhere), teams: Math.max(1, heard.teams ?? 1) };
  }

  /** A token or scope refusal: remembered from its first sighting until a post succeeds. */
  async setWorkspaceCondition(condition: WorkspaceCondition): Promise<void> {
    const current = await this.#get<WorkspaceCondition>("workspace", null);
    if (condition === null && current === null) return;
    if (condition && current?.code === condition.code) return;
    await this.ctx.storage.put("workspace", condition);
    await this.#publish();
  }

  /** This team's figures, for `/decipher status` (the cycle times are the directory's). */
  async health(): Promise<Omit<EngineHealth, "firstCycleAt" | "lastCycleAt">> {
    const s = await this.#summary(this.#team ?? "");
    return {
      lastSuccessAt: s.lastSuccessAt,
      subscriptions: s.subscriptions,
      erroring: s.erroring,
      paused: s.paused,
      overdue: s.overdue,
      slackWorkspace: s.workspace,
    };
  }

  /**
   * This team's part of the registry of before: kept where this shard has nothing newer (a
   * subscription it knows, a digest time a channel set since), so handing it over twice is
   * harmless.
   */
  async adopt(part: LegacyPart): Promise<void> {
    for (const entry of part.entries) {
      const lease = part.leases.find((l) => l.name === entry.name);
      // A subscription with no lease yet (made before leases existed) is due at once.
      this.#sql().exec(
        `INSERT OR IGNORE INTO leases (name, ref, until, status, at, failing_since, overdue)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        entry.name,
        JSON.stringify(entry.ref),
        lease?.until ?? 0,
        lease?.status ?? null,
        lease?.at ?? null,
        lease?.failing_since ?? null,
        lease?.overdue ?? 0,
      );
    }
    await this.#mirror();
    for (const channelId of new Set(part.entries.map((e) => e.ref.channelId)))
      await this.#noteChannel(channelId);
    const due = await this.#get<Record<string, string>>("digests", {});
    await this.ctx.storage.put("digests", { ...part.digests, ...due });
    await this.#publish();
  }

  /** Uninstall (src/objects/tenancy.ts): nothing kept, and the team leaves the directory. */
  async purge(): Promise<void> {
    const teamId = this.#team;
    await this.ctx.storage.deleteAll();
    const everywhere = this.#heard?.everywhere ?? 0;
    this.#heard = { told: null, everywhere };
    this.#heardStored = { told: null, everywhere: 0 };
    if (teamId) await registryDirectory(this.env).dropShard(teamId);
  }

  // ── The team's clock (src/objects/team-clock.ts): each tick asks every subscription to poll ──
  #config: Config | null = null;
  readonly #clock = new TeamClock(this.ctx.storage, () => this.env, this.ctx.id.name ?? "");
  /** A subscription of this team was polled by something else than the clock: the clock runs. */
  keepClock(idleMs: number, config: Config): Promise<void> {
    this.#config = config;
    return this.#clock.keep(idleMs);
  }
  override async alarm(): Promise<void> {
    if (!this.#team) return;
    const config = configOrNull(this.#config, this.env, "team clock");
    if (config?.clock === "alarms") await this.#clock.tick(config, () => this.#entries().map((e) => e.name));
  }

  // ── The root: the directory of shards (src/objects/registry-root.ts) ────────────────────

  /** A shard's summary noted; the subscriptions of every team, which the clock's pace follows. */
  noteShard(summary: ShardSummary): DeploymentSize {
    return this.#root.noteShard(summary);
  }

  dropShard(teamId: string): void {
    this.#root.directory().drop(teamId);
  }

  /** The teams whose shard has work due, and the next parts of the registry of before. */
  dueShards(
    at: string,
    options: { all?: boolean; limit: number },
  ): Promise<{ teams: string[]; legacy: LegacyPart[] }> {
    return this.#root.dueShards(at, options);
  }

  /** The end of a watchdog cycle: its times, and the teams that adopted their part of before. */
  endCycle(at: string, options: { polledOk: boolean; adopted: string[] }): Promise<void> {
    return this.#root.endCycle(at, options);
  }

  cycleTimes(): Promise<CycleTimes> {
    return this.#root.cycleTimes();
  }

  /** Every team's figures added up, for `GET /health`: one query here, no shard called. */
  totals(): Promise<EngineHealth> {
    return this.#root.totals();
  }
}
