import { runInDurableObject } from "cloudflare:test";
import { LEDGER_KEEP_MS, type LedgerRow } from "../../src/model/run-ledger.ts";
import { SqlRunLedger } from "../../src/objects/sql-run-ledger.ts";

const HOUR = 60 * 60 * 1000;

/**
 * Fills a test's run ledger with the hourly passes of the days it keeps before `beforeMs`, as
 * those days left it: a simulated day that starts from an empty ledger never deletes, while a
 * deployed one prunes a row for each it adds, and Cloudflare bills a deleted row as written.
 * Saved by the ledger itself, so they are stored as its passes are; `index` spreads the tests'
 * minutes and ids.
 */
export function keepWeek(stub: DurableObjectStub, index: number, beforeMs: number): Promise<void> {
  const minute = ((index * 7) % 60) * 60_000;
  const rows = Array.from({ length: LEDGER_KEEP_MS / HOUR }, (_, k): LedgerRow => {
    const at = new Date(beforeMs - (k + 1) * HOUR - minute).toISOString();
    return {
      id: 1_500_000_000 + index * 1_000 + k,
      status: "passed",
      createdAt: at,
      firstSeen: at,
      trigger: null,
      fate: "quiet",
      ts: null,
      parentTs: null,
      reason: null,
      decidedAt: at,
    };
  });
  return runInDurableObject(stub, (_instance, state) => {
    new SqlRunLedger(state.storage.sql, { storage: 0 }).save(rows);
  });
}
