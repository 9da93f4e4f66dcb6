import { LEDGER_KEEP_MS, type LedgerRow, rowTime } from "../model/run-ledger.ts";
import type { TestSubscription } from "../model/subscription.ts";
import type { WriteCounter } from "./sql-outbox.ts";
import { isQuietPass, SqlPassBuckets } from "./sql-pass-buckets.ts";

type Stored = {
  id: number;
  status: LedgerRow["status"];
  created_at: string | null;
  first_seen: string;
  trigger: string | null;
  fate: LedgerRow["fate"];
  ts: string | null;
  parent_ts: string | null;
  reason: string | null;
  decided_at: string | null;
  time_ms: number;
};

const fromStored = (r: Stored): LedgerRow => ({
  id: r.id,
  status: r.status,
  createdAt: r.created_at,
  firstSeen: r.first_seen,
  trigger: r.trigger,
  fate: r.fate,
  ts: r.ts,
  parentTs: r.parent_ts,
  reason: r.reason,
  decidedAt: r.decided_at,
});

/** A row a poll must look at again, however old: no final fate yet, or still running. */
const UNSETTLED = "(fate IS NULL OR fate = 'quarantined' OR status = 'running')";

/**
 * A test subscription's run ledger (src/model/run-ledger.ts) in its object's SQLite storage:
 * quiet passes in a ring of buckets (src/objects/sql-pass-buckets.ts), one row written each and
 * never deleted, every other row in `runs`. A run in `runs` that passes quietly moves to its
 * bucket, and a run in both (saved again by a poll that did not read its bucket) is read from `runs`.
 */
export class SqlRunLedger {
  readonly #sql: SqlStorage;
  readonly #passes: SqlPassBuckets;
  readonly #writes: WriteCounter;
  readonly #storeState: ((state: TestSubscription) => Promise<void>) | undefined;

  static migrate(sql: SqlStorage): void {
    sql.exec(`CREATE TABLE IF NOT EXISTS runs (
      id INTEGER PRIMARY KEY, status TEXT NOT NULL, created_at TEXT, first_seen TEXT NOT NULL,
      trigger TEXT, fate TEXT, ts TEXT, parent_ts TEXT, reason TEXT, decided_at TEXT, time_ms INTEGER NOT NULL)`);
    // Each poll reads its window and its unsettled rows: by index, so what it reads (and the
    // plan bills) does not grow with the week of settled runs the ledger keeps. The second
    // index holds only unsettled rows, so a settled run costs no write there.
    sql.exec("CREATE INDEX IF NOT EXISTS runs_by_time ON runs (time_ms)");
    sql.exec(`CREATE INDEX IF NOT EXISTS runs_unsettled ON runs (time_ms) WHERE ${UNSETTLED}`);
    SqlPassBuckets.migrate(sql);
  }

  /** Forgets every run: a fresh subscription starts a fresh ledger. */
  static clear(sql: SqlStorage): void {
    sql.exec("DELETE FROM runs");
    SqlPassBuckets.clear(sql);
  }

  /** `storeState`: where its object keeps the subscription's state, for `checkpoint`. */
  constructor(
    sql: SqlStorage,
    writes: WriteCounter,
    storeState?: (state: TestSubscription) => Promise<void>,
  ) {
    this.#sql = sql;
    this.#writes = writes;
    this.#storeState = storeState;
    this.#passes = new SqlPassBuckets(sql);
  }

  /** The subscription's state as of the rows saved so far (src/engine/poll-test.ts `RunLedger`). */
  async checkpoint(state: TestSubscription): Promise<void> {
    if (!this.#storeState) return;
    await this.#storeState(state);
    this.#writes.storage++;
  }

  /**
   * The failures before `beforeMs` back to the last pass before it, newest first, at most
   * `limit`: a failing streak older than the day the poll reads is still one streak.
   */
  failingBefore(beforeMs: number, limit: number): LedgerRow[] {
    const failures = this.#sql
      .exec<Stored>(
        `SELECT * FROM runs WHERE status = 'failed' AND time_ms < ?1 AND time_ms >
           COALESCE((SELECT MAX(time_ms) FROM runs WHERE status = 'passed' AND time_ms < ?1), -1)
         ORDER BY time_ms DESC LIMIT ?2`,
        beforeMs,
        limit,
      )
      .toArray()
      .map(fromStored);
    if (failures.length === 0) return failures;
    // A bucketed pass between them ends the streak there, as a pass in `runs` does.
    const oldest = Math.min(...failures.map(rowTime));
    const pass = this.#passes.newestBefore(beforeMs, oldest, (id) => this.#inRuns([id]).size > 0);
    return pass === null ? failures : failures.filter((r) => rowTime(r) > pass);
  }

  /**
   * The rows a poll decides from: everything of the last `windowMs` (history for the classes,
   * the strip and the digest), and every row still without a final fate, however old.
   */
  recent(now: Date, windowMs: number): LedgerRow[] {
    const rows = this.#sql
      .exec<Stored>(
        `SELECT * FROM runs WHERE time_ms >= ?1
         UNION ALL SELECT * FROM runs WHERE ${UNSETTLED} AND time_ms < ?1`,
        now.getTime() - windowMs,
      )
      .toArray()
      .map(fromStored);
    const out = new Map<number, LedgerRow>();
    for (const r of this.#passes.since(now.getTime() - windowMs, now.getTime()))
      if (!out.has(r.id) || rowTime(r) > rowTime(out.get(r.id) as LedgerRow)) out.set(r.id, r);
    for (const r of rows) out.set(r.id, r);
    // In the order of a plain read of the table (by id), sorted here: SQLite would sort by
    // reading the whole table in id order.
    return [...out.values()].sort((a, b) => a.id - b.id);
  }

  /**
   * The rows of `ids`. A quiet pass is found only by `timeOf`, the time its run would be stamped
   * with (its plausible `createdAt`), which names its bucket.
   */
  byIds(ids: readonly number[], timeOf?: (id: number) => number | null): LedgerRow[] {
    if (ids.length === 0) return [];
    const out = this.#runsByIds(ids);
    if (!timeOf) return out;
    const held = new Set(out.map((r) => r.id));
    return [
      ...out,
      ...this.#passes.find(
        ids.filter((id) => !held.has(id)),
        timeOf,
      ),
    ];
  }

  #runsByIds(ids: readonly number[]): LedgerRow[] {
    const out: LedgerRow[] = [];
    // SQLite's bound-parameter limit is far above a poll's pages; chunks keep it so anyway.
    for (let i = 0; i < ids.length; i += 90) {
      const chunk = ids.slice(i, i + 90);
      out.push(
        ...this.#sql
          .exec<Stored>(`SELECT * FROM runs WHERE id IN (${chunk.map(() => "?").join(",")})`, ...chunk)
          .toArray()
          .map(fromStored),
      );
    }
    return out;
  }

  #delete(ids: readonly number[]): void {
    for (let i = 0; i < ids.length; i += 90) {
      const chunk = ids.slice(i, i + 90);
      this.#sql.exec(`DELETE FROM runs WHERE id IN (${chunk.map(() => "?").join(",")})`, ...chunk);
    }
  }

  /** The ids of these that have a row in `runs`. */
  #inRuns(ids: readonly number[]): Set<number> {
    return new Set(this.#runsByIds(ids).map((r) => r.id));
  }

  save(rows: readonly LedgerRow[]): void {
    const quiet = rows.filter(isQuietPass);
    const refused = new Set(this.#passes.add(quiet).map((r) => r.id));
    const bucketed = new Set(quiet.map((r) => r.id).filter((id) => !refused.has(id)));
    // A run in `runs` (seen running) that passed quietly moves to its bucket: its delete now is
    // one row, where updating it is two and pruning it 8 days later one more.
    this.#delete([...bucketed]);
    const rest = rows.filter((r) => !bucketed.has(r.id));
    this.#passes.leave(rest.map((r) => r.id));
    this.#writes.storage += bucketed.size;
    for (const r of rest) {
      this.#sql.exec(
        `INSERT OR REPLACE INTO runs (id, status, created_at, first_seen, trigger, fate, ts, parent_ts, reason, decided_at, time_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        r.id,
        r.status,
        r.createdAt,
        r.firstSeen,
        r.trigger,
        r.fate,
        r.ts,
        r.parentTs,
        r.reason,
        r.decidedAt,
        Date.parse(r.createdAt ?? r.firstSeen),
      );
      this.#writes.storage++;
    }
  }

  /** Drops rows past keeping that have their fate; called only on a poll that writes anyway. */
  prune(now: Date): void {
    this.#sql.exec(
      "DELETE FROM runs WHERE time_ms < ? AND fate IS NOT NULL AND fate != 'quarantined'",
      now.getTime() - LEDGER_KEEP_MS,
    );
  }
}
