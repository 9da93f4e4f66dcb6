import type { EngineHealth, SubscriptionRef } from "../model/alert-control.ts";
import type { DeploymentSize } from "../model/plan-governor.ts";
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
 * wait); a later one only once the directory's time is within SHARD_CHECK_SLACK_MS of coming due
 * (or has passed, nothing being due), so lease renewals (which only ever move leases later) cost
 * the directory one write per shard each time its earliest lease nears: every few minutes at
 * full speed, every few hours on a clock the governor slowed (#35), never one per renewal. The
 * last success goes once it is SHARD_SUCCESS_SLACK_MS newer.
 */
export function publishDue(told: ShardSummary | null, now: ShardSummary, at: number): boolean {
  if (!told) return now.subscriptions > 0 || now.checkAt !== null || now.workspace !== null;
  if (!sameFigures(told, now)) return true;
  if (now.checkAt !== null && (told.checkAt === null || now.checkAt < told.checkAt)) return true;
  if (now.checkAt !== null && told.checkAt !== null && now.checkAt > told.checkAt && now.checkAt > at) {
    if (told.checkAt - at <= SHARD_CHECK_SLACK_MS) return true;
  }
  if (now.checkAt === null && told.checkAt !== null && told.checkAt <= at) return true;
  const newer = now.lastSuccessAt && (!told.lastSuccessAt || now.lastSuccessAt > told.lastSuccessAt);
  return (
    !!newer &&
    Date.parse(now.lastSuccessAt as string) - Date.parse(told.lastSuccessAt ?? "1970-01-01") >
      SHARD_SUCCESS_SLACK_MS
  );
}

/**
 * What a shard tells the directory: its summary, with the directory's own time kept when a
 * later one need not go yet (`publishDue`): an early time is always safe (the cron looks there,
 * finds nothing due, and hears the later one), and a summary that moves nothing but a success
 * costs the directory and the shard no row (#35).
 */
export function summaryToTell(told: ShardSummary | null, now: ShardSummary, at: number): ShardSummary {
  if (!told || told.checkAt === null || now.checkAt === null || now.checkAt <= told.checkAt) return now;
  const later = now.checkAt > at && told.checkAt - at <= SHARD_CHECK_SLACK_MS;
  return later || told.checkAt <= at ? now : { ...now, checkAt: told.checkAt };
}

/**
 * Whether a shard must store what it told the directory (with `everywhere`, in one key): when the
 * directory's time or figures moved, or the deployment's size. A newer success alone is kept in
 * memory: an evicted shard that forgot it tells it again (one call, never a late one), and its
 * stored summary still has the directory's time, so an earlier lease always goes.
 */
export function heardStoreDue(
  stored: { told: ShardSummary | null; everywhere: number },
  told: ShardSummary,
  everywhere: number,
): boolean {
  const was = stored.told;
  return !was || was.checkAt !== told.checkAt || !sameFigures(was, told) || stored.everywhere !== everywhere;
}

/** The cron's times (src/objects/registry-object.ts `endCycle`). */
export type CycleTimes = Pick<EngineHealth, "firstCycleAt" | "lastCycleAt" | "lastSuccessAt">;

/**
 * How often the cron's times are stored: `/health` says the watchdog is late after 3 minutes
 * (src/handlers/health-state.ts). The directory answers from memory, exact, while it lives, and
 * the cron's call each minute keeps it alive; one evicted (no cron for over a minute) answers
 * from storage, at most a minute behind.
 */
export const CYCLE_STORE_MS = 2 * 60_000;

/** Whether the cron's times must be stored now (1,440 rows a day when stored every minute, #35). */
export function cycleStoreDue(stored: CycleTimes, next: CycleTimes): boolean {
  if (stored.firstCycleAt === null || stored.lastCycleAt === null) return true;
  if (stored.lastSuccessAt === null && next.lastSuccessAt !== null) return true;
  return Date.parse(next.lastCycleAt ?? "") - Date.parse(stored.lastCycleAt) >= CYCLE_STORE_MS;
}

const isEmpty = (s: ShardSummary) => s.subscriptions === 0 && s.checkAt === null && s.workspace === null;

/** What a team's newest summary said beyond its row: a newer success, and that summary's seq. */
export type Fresher = { at: string | null; seq: number };

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
  /**
   * Newer successes than a team's row has, by team, kept in the object's memory: a summary that
   * says nothing else new is stored only once it is SHARD_SUCCESS_SLACK_MS newer than the newest
   * stored success, so the day's writes for `/health`'s freshness do not grow with the teams
   * (#35). The cron's call each minute keeps the directory alive; one evicted answers from
   * storage, at most that much behind.
   */
  readonly #fresher: Map<string, Fresher>;

  constructor(sql: SqlStorage, fresher: Map<string, Fresher> = new Map()) {
    this.#fresher = fresher;
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
      this.#fresher.delete(s.teamId);
      return;
    }
    const row = this.#sql.exec<ShardRow>("SELECT * FROM shards WHERE team = ?", s.teamId).toArray()[0];
    const kept = this.#fresher.get(s.teamId);
    // Older than a summary kept in memory: what it says is out of date, as the row's seq would say.
    if (row && kept && s.seq < kept.seq) return;
    if (row && this.#onlyFresher(row, s)) {
      if (s.seq >= row.seq)
        this.#fresher.set(s.teamId, { at: s.lastSuccessAt ?? kept?.at ?? null, seq: s.seq });
      return;
    }
    this.#fresher.delete(s.teamId);
    const values = [
      s.checkAt,
      s.subscriptions,
      s.erroring,
      s.paused,
      s.overdue,
      s.lastSuccessAt,
      s.workspace ? JSON.stringify(s.workspace) : null,
      s.seq,
    ];
    // An UPDATE writes the row once; an upsert of a listed team wrote it twice (#35).
    if (row)
      this.#sql.exec(
        `UPDATE shards SET check_at = ?, subscriptions = ?, failing = ?, paused = ?, overdue = ?,
         last_success_at = ?, workspace = ?, seq = ? WHERE team = ? AND seq <= ?`,
        ...values,
        s.teamId,
        s.seq,
      );
    else
      this.#sql.exec(
        `INSERT INTO shards (check_at, subscriptions, failing, paused, overdue, last_success_at, workspace, seq, team)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ...values,
        s.teamId,
      );
  }

  /** Whether `s` says nothing `row` does not but a success under SHARD_SUCCESS_SLACK_MS newer than any stored. */
  #onlyFresher(row: ShardRow, s: ShardSummary): boolean {
    const same =
      row.check_at === s.checkAt &&
      row.subscriptions === s.subscriptions &&
      row.failing === s.erroring &&
      row.paused === s.paused &&
      row.overdue === s.overdue &&
      row.workspace === (s.workspace ? JSON.stringify(s.workspace) : null);
    if (!same || s.lastSuccessAt === null) return same;
    const newest = this.#sql
      .exec<{ last: string | null }>("SELECT MAX(last_success_at) AS last FROM shards")
      .one().last;
    return newest !== null && Date.parse(s.lastSuccessAt) - Date.parse(newest) < SHARD_SUCCESS_SLACK_MS;
  }

  drop(teamId: string): void {
    this.#sql.exec("DELETE FROM shards WHERE team = ?", teamId);
    this.#fresher.delete(teamId);
  }

  /** The subscriptions of every team, and the teams with one: what the clock's pace follows. */
  size(): DeploymentSize {
    const row = this.#sql
      .exec<{ s: number | null; t: number }>(
        "SELECT SUM(subscriptions) AS s, SUM(subscriptions > 0) AS t FROM shards",
      )
      .one();
    return { subscriptions: row.s ?? 0, teams: Math.max(1, row.t ?? 0) };
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
    "subscriptions" | "teams" | "erroring" | "paused" | "overdue" | "lastSuccessAt" | "slackWorkspace"
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
    // A success kept in memory counts only for a team still listed (a test's deleteAll empties the table).
    const fresher = [...this.#fresher]
      .filter(([team]) => this.#sql.exec("SELECT 1 FROM shards WHERE team = ?", team).toArray().length > 0)
      .map(([, kept]) => kept.at);
    return {
      subscriptions: sum.s ?? 0,
      teams: this.size().teams,
      erroring: sum.f ?? 0,
      paused: sum.p ?? 0,
      overdue: sum.o ?? 0,
      lastSuccessAt:
        [sum.last, ...fresher]
          .filter((t): t is string => t !== null)
          .sort()
          .at(-1) ?? null,
      slackWorkspace: refused[0] ?? null,
    };
  }
}
