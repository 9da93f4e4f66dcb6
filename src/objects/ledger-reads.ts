import type { LastRun } from "../engine/guarding-tests.ts";
import { type LedgerDigestLine, ledgerDigestLine } from "../engine/ledger-digest.ts";
import { RUNNING_FOR_AT_MOST_MS } from "../model/poll-clock.ts";
import { byRowTime, LEDGER_KEEP_MS } from "../model/run-ledger.ts";
import { resolveTestOptions, type Subscription } from "../model/subscription.ts";
import { SqlRunLedger } from "./sql-run-ledger.ts";

/**
 * What other objects ask of a test's run ledger (src/objects/subscription-object.ts): read
 * from its SQLite as it is now, writing nothing.
 */

/**
 * The test's digest line: its last day of runs, and its state as the digest names it. Null for
 * a subscription that keeps no run ledger (a collection's), or none at all.
 */
export function digestLineOf(
  sql: SqlStorage,
  sub: Subscription | undefined,
  now: Date,
): LedgerDigestLine | null {
  if (sub?.kind !== "test") return null;
  SqlRunLedger.migrate(sql);
  return ledgerDigestLine(new SqlRunLedger(sql, { storage: 0 }).recent(now, 24 * 60 * 60 * 1000), now, sub);
}

/** The test's newest settled run of its `trigger:`; `runId` 0 when no run has settled yet; null as above. */
export function lastRunOf(sql: SqlStorage, sub: Subscription | undefined): LastRun | null {
  if (sub?.kind !== "test") return null;
  const { trigger } = resolveTestOptions(sub.options);
  const latest = new SqlRunLedger(sql, { storage: 0 })
    .recent(new Date(), LEDGER_KEEP_MS)
    .filter(
      (r) => (r.status === "passed" || r.status === "failed") && (trigger === null || r.trigger === trigger),
    )
    .sort(byRowTime)
    .at(-1);
  return latest
    ? { runId: latest.id, failed: latest.status === "failed", at: latest.createdAt ?? latest.firstSeen }
    : { runId: 0, failed: false };
}

/** The first sighting of the oldest run still running for less than RUNNING_FOR_AT_MOST_MS (the clock's pace). */
export function runningSince(sql: SqlStorage, now: number): number | null {
  SqlRunLedger.migrate(sql);
  const row = sql
    .exec<{ first: string | null }>(
      "SELECT MIN(first_seen) AS first FROM runs WHERE status = 'running' AND first_seen > ?",
      new Date(now - RUNNING_FOR_AT_MOST_MS).toISOString(),
    )
    .one();
  return row.first ? Date.parse(row.first) : null;
}
