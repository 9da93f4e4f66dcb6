import type { VendorClient } from "../decipher/vendor-client.ts";
import { runsForOptions } from "../engine/failure-route.ts";
import type { LastRun } from "../engine/guarding-tests.ts";
import { type LedgerDigestLine, ledgerDigestLine, ledgerTestStateFacts } from "../engine/ledger-digest.ts";
import { withOlderStreak } from "../engine/poll-test.ts";
import { type FailingAtSubscribe, failingAtSubscribe } from "../model/failing-at-subscribe.ts";
import { type PeriodRuns, periodRuns } from "../model/period-runs.ts";
import { RUNNING_FOR_AT_MOST_MS } from "../model/poll-clock.ts";
import {
  byRowTime,
  LEDGER_KEEP_MS,
  type LedgerRow,
  plausibleTime,
  rowTime,
  undecidedRow,
} from "../model/run-ledger.ts";
import { resolveTestOptions, type Subscription, type TestSubscription } from "../model/subscription.ts";
import type { TestStateFacts } from "../model/test-state.ts";
import { SqlRunLedger } from "./sql-run-ledger.ts";

/** How far before the oldest run the last poll saw running the digest looks again. */
const FRESH_WINDOW_MS = 10 * 60 * 1000;
const FRESH_RUNS = 50;

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
 * A test whose options changed (from `before`), with its state read again from its ledger under
 * them (its `trigger:` picks which runs are its own), as its next poll would: the subscribe
 * reply's "Now:" is then true of the options it names, and so is its promise.
 */
export function withStateUnderOptions(
  sql: SqlStorage,
  sub: Subscription,
  now: Date,
  before?: Subscription,
): Subscription {
  const read = testLedger(sql, sub);
  if (!read) return sub;
  const rows = withOlderStreak(read.ledger.recent(now, 24 * 60 * 60 * 1000), read.ledger, now);
  const stateFacts = ledgerTestStateFacts(rows, read.test, now);
  return { ...read.test, stateFacts, failingAtSubscribe: owedPass(rows, stateFacts, read.test, before) };
}

/**
 * The pass owed since subscribing, under new options. The same runs counted (`after:`,
 * `mention:`, `flaky:` changed): the promise as it was made. Other runs (`trigger:` changed):
 * their failing is owed its pass, and none is owed when they are not failing ("passed again"
 * for runs that never failed would be false), unless an open alert's thread tells it anyway.
 */
function owedPass(
  rows: readonly LedgerRow[],
  facts: TestStateFacts,
  sub: TestSubscription,
  before: Subscription | undefined,
): FailingAtSubscribe | null {
  const was = sub.failingAtSubscribe ?? null;
  const { trigger } = resolveTestOptions(sub.options);
  const counted = before?.kind === "test" ? resolveTestOptions(before.options).trigger : trigger;
  if (trigger === counted || sub.streak) return was;
  return failingAtSubscribe(rows, facts, trigger);
}

/**
 * The test's digest line: its last day of runs, and its state as the digest names it. Null for
 * a subscription that keeps no run ledger (a collection's), or none at all.
 */
export async function digestLineOf(
  sql: SqlStorage,
  sub: Subscription | undefined,
  now: Date,
  vendor: VendorClient | null,
  everyTest = false,
): Promise<LedgerDigestLine | null> {
  const read = testLedger(sql, sub);
  if (!read) return null;
  const rows = read.ledger.recent(now, 24 * 60 * 60 * 1000);
  const fresh = vendor ? await runsSinceLastPoll(vendor, read.test, rows, now, everyTest) : [];
  if (fresh.length === 0) return ledgerDigestLine(rows, now, read.test);
  // A run read again replaces its row; the state is read again with them (the stored one is as of the last poll).
  const again = new Set(fresh.map((r) => r.id));
  const current = [...rows.filter((r) => !again.has(r.id)), ...fresh];
  return ledgerDigestLine(current, now, { ...read.test, stateFacts: undefined });
}

/**
 * Runs Decipher lists that the ledger does not hold yet, or holds in another state (a run that
 * appeared or ended since the last poll, up to a minute ago). Read for every test of a small
 * channel (`everyTest`), and in a big one only for a test whose last poll saw a run still
 * running, so a channel of 200 idle tests costs no vendor read (src/objects/ledger-lines.ts).
 * Only counted here, never recorded: the next poll decides them. None when Decipher fails.
 */
async function runsSinceLastPoll(
  vendor: VendorClient,
  test: TestSubscription,
  rows: readonly LedgerRow[],
  now: Date,
  everyTest: boolean,
): Promise<LedgerRow[]> {
  const running = rows.filter((r) => r.status === "running");
  if (running.length === 0 && !everyTest) return [];
  const held = new Map(rows.map((r) => [r.id, r.status]));
  // From a little before the oldest run the last poll saw running, or else its newest run.
  const anchor =
    running.length > 0
      ? Math.min(...running.map(rowTime))
      : Math.max(now.getTime() - 24 * 60 * 60 * 1000, ...rows.map(rowTime));
  const since = new Date(anchor - FRESH_WINDOW_MS);
  const page = await vendor
    .listTestRuns(test.testId, { status: "all", since, limit: FRESH_RUNS })
    .catch(() => null);
  // Only the runs the subscription counts (its `trigger:`), as its polls read them.
  return runsForOptions(page?.data ?? [], test.options)
    .filter((run) => held.get(run.id) !== run.status)
    .map((run) => undecidedRow(run.id, run.status, plausibleTime(run.createdAt, now) ?? now.toISOString()));
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
