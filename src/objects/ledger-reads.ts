import type { LastRun } from "../engine/guarding-tests.ts";
import { type LedgerDigestLine, ledgerDigestLine } from "../engine/ledger-digest.ts";
import { type PeriodRuns, periodRuns } from "../model/period-runs.ts";
import { RUNNING_FOR_AT_MOST_MS } from "../model/poll-clock.ts";
import { byRowTime, LEDGER_KEEP_MS } from "../model/run-ledger.ts";
import { resolveTestOptions, type Subscription, type TestSubscription } from "../model/subscription.ts";
import { SqlRunLedger } from "./sql-run-ledger.ts";

/**
 * What other objects ask of a test's run ledger (src/objects/subscription-object.ts): read
 * from its SQLite as it is now, writing nothing.
 */

/** A test's ledger, ready to read; null for a subscription that keeps none (a collection's), or none at all. */
function testLedger(
  sql: SqlStorage,
  sub: Subscription | undefined,
): { test: TestSubscription; ledger: SqlRunLedger } | null {
  if (sub?.kind !== "test") return null;
  SqlRunLedger.migrate(sql);
  return { test: sub, ledger: new SqlRunLedger(sql, { storage: 0 }) };
}

/**
 * The test's digest line: its last day of runs, and its state as the digest names it. Null for
 * a subscription that keeps no run ledger (a collection's), or none at all.
 */
export function digestLineOf(
  sql: SqlStorage,
  sub: Subscription | undefined,
  now: Date,
): LedgerDigestLine | null {
  const read = testLedger(sql, sub);
  return read && ledgerDigestLine(read.ledger.recent(now, 24 * 60 * 60 * 1000), now, read.test);
}

/** The test's runs of a period (at most the ledger's 8 days); null as above. */
export function periodRunsOf(
  sql: SqlStorage,
  sub: Subscription | undefined,
  since: Date,
  until: Date,
): PeriodRuns | null {
  const read = testLedger(sql, sub);
  return read && periodRuns(read.ledger.recent(until, until.getTime() - since.getTime()), since, until);
}

/** The test's newest settled run of its `trigger:`; `runId` 0 when no run has settled yet; null as above. */
export function lastRunOf(sql: SqlStorage, sub: Subscription | undefined): LastRun | null {
  const read = testLedger(sql, sub);
  if (!read) return null;
  const { trigger } = resolveTestOptions(read.test.options);
  const latest = read.ledger
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
