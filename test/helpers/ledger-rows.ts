import type { LedgerRow } from "../../src/model/run-ledger.ts";

/** A ledger row of a run stamped `at` (ms): a quiet pass unless `over` says otherwise. */
export const ledgerRow = (id: number, at: number, over: Partial<LedgerRow> = {}): LedgerRow => ({
  id,
  status: "passed",
  createdAt: new Date(at).toISOString(),
  firstSeen: new Date(at).toISOString(),
  trigger: null,
  fate: "quiet",
  ts: null,
  parentTs: null,
  reason: null,
  decidedAt: new Date(at).toISOString(),
  ...over,
});

/** Stores `r` in `runs` as the ledger did before issue #35 kept quiet passes apart (an object deployed before it). */
export function storeAsBefore(sql: SqlStorage, r: LedgerRow): void {
  const stored: Record<string, SqlStorageValue> = {
    id: r.id,
    status: r.status,
    created_at: r.createdAt,
    first_seen: r.firstSeen,
    trigger: r.trigger,
    fate: r.fate,
    ts: r.ts,
    parent_ts: r.parentTs,
    reason: r.reason,
    decided_at: r.decidedAt,
    time_ms: Date.parse(r.createdAt ?? r.firstSeen),
  };
  const columns = Object.keys(stored);
  sql.exec(
    `INSERT INTO runs (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    ...Object.values(stored),
  );
}
