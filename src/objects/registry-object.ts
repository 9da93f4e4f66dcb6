import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config.ts";
import type { EngineHealth, SubscriptionRef } from "../model/alert-control.ts";
import { keys } from "../store/keys.ts";
import { copyKey } from "./addresses.ts";

/** One subscription as the cron knows it. */
export type RegistryEntry = { name: string; ref: SubscriptionRef };

/** How one poll went, as the registry keeps it for `/health` and `/decipher status`. */
export type PollStatus = "ok" | "failing" | "paused" | "busy" | "gone" | "waiting";
export type PollSummary = {
  name: string;
  status: PollStatus;
  at: string;
  failingSince: string | null;
  /** Failed runs older than 5 minutes with no fate (src/model/run-ledger.ts): always 0 when the engine works. */
  overdue?: number;
};

export type WorkspaceCondition = EngineHealth["slackWorkspace"];

type CycleMeta = { firstCycleAt: string | null; lastCycleAt: string | null; lastSuccessAt: string | null };

/**
 * One row per subscription in the registry's SQLite: how its last reported poll went, and its
 * watchdog lease (`until`, ms): the time by which it must have told the registry again. The
 * cron reads only the rows whose lease has passed (an index on `until`), so it costs the same
 * at 10 or 10,000 subscriptions.
 */
type ClockRow = {
  name: string;
  until: number;
  status: string | null;
  at: string | null;
  failing_since: string | null;
  overdue: number;
};

/**
 * The one writer of the subscription index, the digest timetable, the objects' watchdog
 * leases and the engine's health. KV has no compare-and-swap: two subscribes editing one index
 * key lose an entry; here they run one after the other. The index is mirrored to KV (on change
 * only) for readers.
 */
export class RegistryObject extends DurableObject<Env> {
  async #get<T>(key: string, fallback: T): Promise<T> {
    return ((await this.ctx.storage.get<T>(key)) ?? fallback) as T;
  }

  /** The clock table, made again when missing (a test's deleteAll drops it under a live instance). */
  #sql(): SqlStorage {
    const sql = this.ctx.storage.sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS clock (name TEXT PRIMARY KEY, until INTEGER NOT NULL,
      status TEXT, at TEXT, failing_since TEXT, overdue INTEGER NOT NULL DEFAULT 0)`);
    sql.exec("CREATE INDEX IF NOT EXISTS clock_until ON clock (until)");
    return sql;
  }

  async #entries(): Promise<Record<string, RegistryEntry>> {
    return this.#get<Record<string, RegistryEntry>>("index", {});
  }

  async #saveIndex(index: Record<string, RegistryEntry>): Promise<void> {
    await this.ctx.storage.put("index", index);
    const copy = Object.values(index)
      .map((e) => copyKey(this.env, e.ref))
      .sort();
    await this.env.STATE.put(keys.subscriptionIndex(), JSON.stringify(copy));
  }

  /** Adds a subscription; its lease starts now, so the watchdog wakes it if its clock never starts. */
  async add(entry: RegistryEntry, until = Date.now()): Promise<void> {
    this.#sql().exec(
      "INSERT INTO clock (name, until) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET until = excluded.until",
      entry.name,
      until,
    );
    const index = await this.#entries();
    if (index[entry.name]) return;
    index[entry.name] = entry;
    await this.#saveIndex(index);
  }

  async remove(name: string): Promise<void> {
    this.#sql().exec("DELETE FROM clock WHERE name = ?", name);
    const index = await this.#entries();
    if (!index[name]) return;
    delete index[name];
    await this.#saveIndex(index);
  }

  /** The names of a channel's test subscriptions: who an outage window asks to poll, and how many there are. */
  async tests(teamId: string, channelId: string): Promise<string[]> {
    return Object.values(await this.#entries())
      .filter((e) => e.ref.teamId === teamId && e.ref.channelId === channelId && e.ref.kind === "test")
      .map((e) => e.name);
  }

  async list(): Promise<RegistryEntry[]> {
    return Object.values(await this.#entries());
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
  }

  /**
   * What one watchdog cycle has to do: the subscriptions whose lease has passed (all of them
   * when `all`, the clock kept by the cron alone), and the channels whose digest is due.
   */
  async beginCycle(
    at: string,
    options: { all?: boolean; limit?: number } = {},
  ): Promise<{ entries: RegistryEntry[]; dueDigests: string[] }> {
    const due = await this.#get<Record<string, string>>("digests", {});
    const now = Date.parse(at);
    const index = await this.#entries();
    // Subscriptions made before leases existed have no row and no alarm yet: expired, once.
    if (!(await this.ctx.storage.get<boolean>("leasesSeeded"))) {
      for (const name of Object.keys(index))
        this.#sql().exec("INSERT OR IGNORE INTO clock (name, until) VALUES (?, 0)", name);
      await this.ctx.storage.put("leasesSeeded", true);
    }
    const overdue = options.all
      ? Object.keys(index)
      : this.#sql()
          .exec<{ name: string }>(
            "SELECT name FROM clock WHERE until <= ? ORDER BY until LIMIT ?",
            now,
            options.limit ?? 1_000,
          )
          .toArray()
          .map((r) => r.name);
    return {
      entries: overdue.flatMap((name) => (index[name] ? [index[name]] : [])),
      dueDigests: Object.entries(due)
        .filter(([, dueAt]) => Date.parse(dueAt) <= now)
        .map(([name]) => name),
    };
  }

  #upsert(s: PollSummary, until: number | null): void {
    this.#sql().exec(
      `INSERT INTO clock (name, until, status, at, failing_since, overdue) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET until = COALESCE(?, until), status = excluded.status,
       at = excluded.at, failing_since = excluded.failing_since, overdue = excluded.overdue`,
      s.name,
      until ?? 0,
      s.status,
      s.at,
      s.failingSince,
      s.overdue ?? 0,
      until,
    );
  }

  /**
   * Results of polls the cron ran itself (the watchdog's, or every poll when it keeps the
   * clock alone): one write per subscription that answered, and the cycle's times.
   */
  async recordPolls(at: string, summaries: PollSummary[], complete: boolean): Promise<void> {
    const index = await this.#entries();
    for (const s of summaries) {
      if (s.status === "busy") continue;
      if (s.status === "waiting") {
        // A poll held back (a Slack backoff) still read its ledger: what is overdue shows meanwhile.
        this.#sql().exec("UPDATE clock SET overdue = ? WHERE name = ?", s.overdue ?? 0, s.name);
        continue;
      }
      if (s.status === "gone" || !index[s.name]) this.#sql().exec("DELETE FROM clock WHERE name = ?", s.name);
      else this.#upsert(s, null);
    }
    const meta = await this.#get<CycleMeta>("cycle", {
      firstCycleAt: null,
      lastCycleAt: null,
      lastSuccessAt: null,
    });
    // A cycle with nothing to poll succeeds only when there is nothing at all: a watchdog that
    // found every clock running polled nothing, and says nothing about the polls.
    const succeeded =
      summaries.some((s) => s.status === "ok") || (complete && Object.keys(index).length === 0);
    await this.ctx.storage.put("cycle", {
      firstCycleAt: meta.firstCycleAt ?? at,
      lastCycleAt: complete ? at : meta.lastCycleAt,
      lastSuccessAt: succeeded ? at : meta.lastSuccessAt,
    } satisfies CycleMeta);
  }

  /**
   * An object's own report, sent when its state changed or its lease is due for renewal (never
   * on every poll): how its poll went, and the time by which it will have polled again.
   */
  async report(summary: PollSummary, until: number): Promise<void> {
    const index = await this.#entries();
    if (!index[summary.name]) return;
    this.#upsert(summary, until);
  }

  /** A token or scope refusal: remembered from its first sighting until a post succeeds. */
  async setWorkspaceCondition(condition: WorkspaceCondition): Promise<void> {
    const current = await this.#get<WorkspaceCondition>("workspace", null);
    if (condition === null && current === null) return;
    if (condition && current?.code === condition.code) return;
    await this.ctx.storage.put("workspace", condition);
  }

  async health(): Promise<EngineHealth> {
    const [index, cycle, workspace] = await Promise.all([
      this.#entries(),
      this.#get<CycleMeta>("cycle", { firstCycleAt: null, lastCycleAt: null, lastSuccessAt: null }),
      this.#get<WorkspaceCondition>("workspace", null),
    ]);
    const live = this.#sql()
      .exec<ClockRow>("SELECT * FROM clock WHERE status IS NOT NULL")
      .toArray()
      .filter((r) => index[r.name]);
    // The newest successful poll any object reported (objects report on a change, and renew
    // their lease every few minutes), or the cron's own.
    const reported = live.filter((r) => r.status === "ok" && r.at).map((r) => r.at as string);
    const lastSuccessAt = [cycle.lastSuccessAt, ...reported]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1);
    return {
      firstCycleAt: cycle.firstCycleAt,
      lastCycleAt: cycle.lastCycleAt,
      lastSuccessAt: lastSuccessAt ?? null,
      subscriptions: Object.keys(index).length,
      failing: live.filter((r) => r.status === "failing").length,
      paused: live.filter((r) => r.status === "paused").length,
      overdue: live.reduce((n, r) => n + (r.overdue ?? 0), 0),
      slackWorkspace: workspace,
    };
  }
}
