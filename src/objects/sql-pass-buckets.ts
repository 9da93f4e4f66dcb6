import { LEDGER_KEEP_MS, type LedgerRow } from "../model/run-ledger.ts";

/**
 * The quiet passes of a test's run ledger (src/objects/sql-run-ledger.ts), kept in a fixed ring
 * of buckets by their `createdAt`, each bucket one row overwritten in place: a pass costs one
 * row written (its bucket's), and nothing is ever deleted, since a slot is overwritten when the
 * ring comes round to it, after its passes aged out (docs/architecture.md, "Rows written per
 * run (#35)").
 */

const HOUR_MS = 60 * 60 * 1000;
/** The time one bucket spans: a day is read in 9 rows. */
const BUCKET_MS = 3 * HOUR_MS;
/** Buckets in the ring: the ledger's 8 days and a day more, so a slot comes round only after its passes aged out. */
const RING = (LEDGER_KEEP_MS + 24 * HOUR_MS) / BUCKET_MS;
/** How far after a reader's `now` a pass may be stamped: vendor clock skew, and a margin. */
const AHEAD_MS = HOUR_MS;

/** A pass as a bucket keeps it: what it does not keep is what makes it a quiet pass. */
type Entry = [
  id: number,
  createdAt: string,
  firstSeen: string,
  trigger: string | null,
  decidedAt: string | null,
];
type Slot = { slot: number; bucket: number; runs: string };

/** A settled pass with nothing to tell and a plausible time: the run most polls write, kept in a bucket. */
export function isQuietPass(r: LedgerRow): boolean {
  return (
    r.status === "passed" &&
    r.fate === "quiet" &&
    r.createdAt !== null &&
    r.ts === null &&
    r.parentTs === null &&
    r.reason === null
  );
}

const bucketOf = (ms: number) => Math.floor(ms / BUCKET_MS);
const slotOf = (bucket: number) => ((bucket % RING) + RING) % RING;
const entryOf = (r: LedgerRow): Entry => [r.id, r.createdAt as string, r.firstSeen, r.trigger, r.decidedAt];
const rowOf = ([id, createdAt, firstSeen, trigger, decidedAt]: Entry): LedgerRow => ({
  id,
  status: "passed",
  createdAt,
  firstSeen,
  trigger,
  fate: "quiet",
  ts: null,
  parentTs: null,
  reason: null,
  decidedAt,
});

export class SqlPassBuckets {
  readonly #sql: SqlStorage;
  /** The bucket each pass read so far was found in: a pass saved again elsewhere leaves it. */
  readonly #found = new Map<number, number>();

  static migrate(sql: SqlStorage): void {
    // No index but the slot: an update of a bucket is its one row.
    sql.exec(
      "CREATE TABLE IF NOT EXISTS passes (slot INTEGER PRIMARY KEY, bucket INTEGER NOT NULL, runs TEXT NOT NULL)",
    );
  }

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** The passes stamped from `fromMs` on, up to a little after `nowMs`; a read of the whole kept week reads every slot. */
  since(fromMs: number, nowMs: number): LedgerRow[] {
    const first = bucketOf(fromMs);
    const last = nowMs - fromMs >= LEDGER_KEEP_MS ? Number.MAX_SAFE_INTEGER : bucketOf(nowMs + AHEAD_MS);
    const out: LedgerRow[] = [];
    for (const [, entries] of this.#buckets(first, last))
      for (const e of entries) if (Date.parse(e[1]) >= fromMs) out.push(rowOf(e));
    return out;
  }

  /** The passes of `ids` whose bucket `timeOf` names (the time each would be stamped with). */
  find(ids: readonly number[], timeOf: (id: number) => number | null): LedgerRow[] {
    const wanted = new Set(ids);
    const buckets = new Set<number>();
    for (const id of ids) {
      const t = timeOf(id);
      if (t !== null && Number.isFinite(t)) buckets.add(bucketOf(t));
    }
    const out: LedgerRow[] = [];
    for (const b of buckets)
      for (const [, entries] of this.#buckets(b, b))
        for (const e of entries) if (wanted.has(e[0])) out.push(rowOf(e));
    return out;
  }

  /**
   * The time of the newest pass stamped before `beforeMs` and not before `notBeforeMs`, passes
   * `superseded` names left out; null when there is none. Reads back a day of buckets at a time.
   */
  newestBefore(beforeMs: number, notBeforeMs: number, superseded: (id: number) => boolean): number | null {
    const floor = Math.max(bucketOf(notBeforeMs), bucketOf(beforeMs) - RING + 1);
    for (let last = bucketOf(beforeMs); last >= floor; last -= 8) {
      const found = [...this.#buckets(Math.max(floor, last - 7), last)]
        .flatMap(([, entries]) => entries)
        .map((e) => ({ id: e[0], t: Date.parse(e[1]) }))
        .filter((p) => p.t < beforeMs && p.t >= notBeforeMs)
        .sort((a, b) => b.t - a.t)
        .find((p) => !superseded(p.id));
      if (found) return found.t;
    }
    return null;
  }

  /**
   * Keeps these quiet passes, one row written per bucket they fall in. Returns those it cannot
   * keep: a pass older than the bucket its slot already holds (older than the ring).
   */
  add(rows: readonly LedgerRow[]): LedgerRow[] {
    const byBucket = new Map<number, LedgerRow[]>();
    for (const r of rows) {
      const b = bucketOf(Date.parse(r.createdAt as string));
      byBucket.set(b, [...(byBucket.get(b) ?? []), r]);
    }
    const refused: LedgerRow[] = [];
    for (const [b, adding] of byBucket) {
      const held = this.#slot(b);
      if (held && held.bucket > b) {
        refused.push(...adding);
        continue;
      }
      const ids = new Set(adding.map((r) => r.id));
      const kept = held?.bucket === b ? (JSON.parse(held.runs) as Entry[]).filter((e) => !ids.has(e[0])) : [];
      this.#write(b, [...kept, ...adding.map(entryOf)]);
      this.leave(
        adding.map((r) => r.id),
        b,
      );
      for (const id of ids) this.#found.set(id, b);
    }
    return refused;
  }

  /** Takes `ids` out of the buckets they were read from (other than `stay`): they were saved elsewhere. */
  leave(ids: readonly number[], stay?: number): void {
    const from = new Map<number, Set<number>>();
    for (const id of ids) {
      const b = this.#found.get(id);
      if (b !== undefined && b !== stay) from.set(b, (from.get(b) ?? new Set()).add(id));
    }
    for (const [b, gone] of from) {
      for (const [, entries] of this.#buckets(b, b))
        this.#write(
          b,
          entries.filter((e) => !gone.has(e[0])),
        );
      for (const id of gone) this.#found.delete(id);
    }
  }

  static clear(sql: SqlStorage): void {
    sql.exec("DELETE FROM passes");
  }

  /** The buckets `first` to `last` that the ring still holds, with their passes. */
  *#buckets(first: number, last: number): Generator<[number, Entry[]]> {
    const count = Math.min(last - first + 1, RING);
    if (count <= 0) return;
    const slots = Array.from({ length: count }, (_, k) => slotOf(first + k));
    const rows = this.#sql
      .exec<Slot>(
        `SELECT slot, bucket, runs FROM passes WHERE slot IN (${slots.map(() => "?").join(",")})`,
        ...slots,
      )
      .toArray();
    for (const row of rows) {
      if (row.bucket < first || row.bucket > last) continue;
      const entries = JSON.parse(row.runs) as Entry[];
      for (const e of entries) this.#found.set(e[0], row.bucket);
      yield [row.bucket, entries];
    }
  }

  #slot(bucket: number): Slot | undefined {
    return this.#sql
      .exec<Slot>("SELECT slot, bucket, runs FROM passes WHERE slot = ?", slotOf(bucket))
      .toArray()[0];
  }

  #write(bucket: number, entries: readonly Entry[]): void {
    this.#sql.exec(
      `INSERT INTO passes (slot, bucket, runs) VALUES (?1, ?2, ?3)
       ON CONFLICT (slot) DO UPDATE SET bucket = excluded.bucket, runs = excluded.runs`,
      slotOf(bucket),
      bucket,
      JSON.stringify(entries),
    );
  }
}
