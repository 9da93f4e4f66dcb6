import type { EngineHealth, SubscriptionRef } from "../model/alert-control.ts";
import { SHARD_CHECK_SLACK_MS, SHARD_SUCCESS_SLACK_MS } from "../model/poll-clock.ts";

export type WorkspaceCondition = EngineHealth["slackWorkspace"];

/** One subscription as the cron knows it. */
export type RegistryEntry = { name: string; ref: SubscriptionRef };

/**
 * What the directory knows of one team's registry shard: when the cron must look at it next,
 * and the figures `/health` adds up. A shard sends it only when the cron or `/health` would
 * otherwise be wrong (`publishDue`), never on every poll.
 */
export type ShardSummary = {
  teamId: string;
  /** The earliest of its leases and digest times (ms), or null: nothing for the cron to do there. */
  checkAt: number | null;
  subscriptions: number;
  erroring: number;
  paused: number;
  overdue: number;
  /** The newest successful poll its objects reported. */
  lastSuccessAt: string | null;
  workspace: WorkspaceCondition;
  /** When the shard made it (ms): an older summary never replaces a newer one. */
  seq: number;
};

const sameFigures = (a: ShardSummary, b: ShardSummary) =>
  a.subscriptions === b.subscriptions &&
  a.erroring === b.erroring &&
  a.paused === b.paused &&
  a.overdue === b.overdue &&
  a.workspace?.code === b.workspace?.code;

/**
 * Whether a shard must tell the directory: its figures changed, or the directory's time to look
 * at it is wrong in a way that matters. An earlier time always goes (a stopped clock must not
 * wait); a later one only once it is SHARD_CHECK_SLACK_MS later than what the directory has, or
 * when the directory's time has passed and nothing is due, so lease renewals (which only ever
 * move leases later) cost the directory about one write per shard every few minutes, not one per
 * renewal. The last success goes once it is SHARD_SUCCESS_SLACK_MS newer.
 */
export function publishDue(told: ShardSummary | null, now: ShardSummary, at: number): boolean {
  if (!told) return now.subscriptions > 0 || now.checkAt !== null || now.workspace !== null;
  if (!sameFigures(told, now)) return true;
  if (now.checkAt !== null && (told.checkAt === null || now.checkAt < told.checkAt)) return true;
  if (now.checkAt !== null && told.checkAt !== null) {
    if (now.checkAt - told.checkAt > SHARD_CHECK_SLACK_MS) return true;
    if (told.checkAt <= at && now.checkAt > at) return true;
  }
  if (now.checkAt === null && told.checkAt !== null && told.checkAt <= at) return true;
  const newer = now.lastSuccessAt && (!told.lastSuccessAt || now.lastSuccessAt > told.lastSuccessAt);
  return (
    !!newer &&
    Date.parse(now.lastSuccessAt as string) - Date.parse(told.lastSuccessAt ?? "1970-01-01") >
      SHARD_SUCCESS_SLACK_MS
  );
}

const isEmpty = (s: ShardSummary) => s.subscriptions === 0 && s.checkAt === null && s.workspace === null;

type ShardRow = {
  team: string;
  check_at: number | null;
  subscriptions: number;
  /** Its erroring subscriptions (the column's name is from before the word). */
  failing: number;
  paused: number;
  overdue: number;
  last_success_at: string | null;
  workspace: string | null;
  seq: number;
};

/**
 * The directory of registry shards, one row per team, in the root registry object's SQLite: the
 * cron reads which shards have work due (an index on `check_at`), and `/health` adds up every
 * shard's figures in one query, without calling a shard. Synchronous, so no other request of the
 * object interleaves with one method.
 */
export class SqlRegistryDirectory {
  readonly #sql: SqlStorage;

  constructor(sql: SqlStorage) {
    // Made again when missing: a test's deleteAll drops the table under a live instance.
    sql.exec(`CREATE TABLE IF NOT EXISTS shards (team TEXT PRIMARY KEY, check_at INTEGER,
      subscriptions INTEGER NOT NULL, failing INTEGER NOT NULL, paused INTEGER NOT NULL,
      overdue INTEGER NOT NULL, last_success_at TEXT, workspace TEXT, seq INTEGER NOT NULL)`);
    sql.exec("CREATE INDEX IF NOT EXISTS shards_check_at ON shards (check_at)");
    this.#sql = sql;
  }

  /** A shard's newest summary; an empty shard (nothing subscribed, nothing due) leaves the directory. */
  note(s: ShardSummary): void {
    if (isEmpty(s)) {
      this.#sql.exec("DELETE FROM shards WHERE team = ? AND seq <= ?", s.teamId, s.seq);
      return;
    }
    this.#sql.exec(
      `INSERT INTO shards (team, check_at, subscriptions, failing, paused, overdue, last_success_at, workspace, seq)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (team) DO UPDATE SET check_at = excluded.check_at, subscriptions = excluded.subscriptions,
       failing = excluded.failing, paused = excluded.paused, overdue = excluded.overdue,
       last_success_at = excluded.last_success_at, workspace = excluded.workspace, seq = excluded.seq
       WHERE excluded.seq >= shards.seq`,
      s.teamId,
      s.checkAt,
      s.subscriptions,
      s.erroring,
      s.paused,
      s.overdue,
      s.lastSuccessAt,
      s.workspace ? JSON.stringify(s.workspace) : null,
      s.seq,
    );
  }

  drop(teamId: string): void {
    this.#sql.exec("DELETE FROM shards WHERE team = ?", teamId);
  }

  /** The teams whose shard has work due at `at` (every team with `all`), the longest-waiting first. */
  due(at: number, limit: number, all = false): string[] {
    const rows = all
      ? this.#sql.exec<{ team: string }>("SELECT team FROM shards ORDER BY team").toArray()
      : this.#sql
          .exec<{ team: string }>(
            "SELECT team FROM shards WHERE check_at <= ? ORDER BY check_at LIMIT ?",
            at,
            limit,
          )
          .toArray();
    return rows.map((r) => r.team);
  }

  /** Every shard's figures added up, the newest success, and the earliest Slack refusal. */
  totals(): Pick<
    EngineHealth,
    "subscriptions" | "erroring" | "paused" | "overdue" | "lastSuccessAt" | "slackWorkspace"
  > {
    const sum = this.#sql
      .exec<{ s: number | null; f: number | null; p: number | null; o: number | null; last: string | null }>(
        `SELECT SUM(subscriptions) AS s, SUM(failing) AS f, SUM(paused) AS p, SUM(overdue) AS o,
         MAX(last_success_at) AS last FROM shards`,
      )
      .one();
    const refused = this.#sql
      .exec<Pick<ShardRow, "workspace">>("SELECT workspace FROM shards WHERE workspace IS NOT NULL")
      .toArray()
      .map((r) => JSON.parse(r.workspace as string) as NonNullable<WorkspaceCondition>)
      .sort((a, b) => a.since.localeCompare(b.since));
    return {
      subscriptions: sum.s ?? 0,
      erroring: sum.f ?? 0,
      paused: sum.p ?? 0,
      overdue: sum.o ?? 0,
      lastSuccessAt: sum.last,
      slackWorkspace: refused[0] ?? null,
    };
  }
}
