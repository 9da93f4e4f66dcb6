import type { DigestTestState } from "../messages/digest-message.ts";
import { byRowTime, countedFailures, type LedgerRow, rowTime } from "../model/run-ledger.ts";
import { resolveTestOptions, type TestSubscription } from "../model/subscription.ts";
import { type ClassifiedRun, classifyTest, testState } from "../model/test-classification.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A test's digest line as its own object knows it: from the ledger, without asking Decipher. */
export type LedgerDigestLine = {
  runs24h: number;
  failures24h: number;
  passRate: number | null;
  state: DigestTestState;
  /** Runs of the day that finished (passed or failed): the weight of the day in the digest's trend. */
  settled: number;
  /** Failures of the day counted, not posted, by reason (`after`, `flaky-digest`, `snoozed`, …). */
  counted: Record<string, number>;
};

/** The runs the alerts classify, from the ledger: only the subscription's trigger, as `runsForOptions` does. */
function classifiedRuns(rows: readonly LedgerRow[], sub: TestSubscription): ClassifiedRun[] {
  const { trigger } = resolveTestOptions(sub.options);
  return rows.flatMap((row) =>
    row.status === "unreadable" || row.status === "grown" || (trigger !== null && row.trigger !== trigger)
      ? []
      : [{ id: row.id, status: row.status, createdAt: new Date(rowTime(row)).toISOString() }],
  );
}

/**
 * The bot called the test flaky within the window: its "is flaky" alert was posted since then
 * (its failures may since have gone into outage messages, held for the outage window), one of
 * these failures went to that thread, or one was counted as flaky for the digest.
 */
function calledFlaky(rows: readonly LedgerRow[], sub: TestSubscription, since: number): boolean {
  const thread = sub.flakyThread?.ts;
  if (thread !== undefined && Number(thread) * 1000 >= since) return true;
  return rows.some(
    (r) =>
      r.status === "failed" &&
      ((r.fate === "counted" && r.reason === "flaky-digest") ||
        (thread !== undefined && (r.ts === thread || r.parentTs === thread))),
  );
}

/**
 * The last 24 hours of a test's ledger as the digest shows them. Its state is the alerts'
 * classification of the same runs (`testState`), so a test the alerts call flaky or failing
 * is not "passing" in the digest because its latest run passed.
 */
export function ledgerDigestLine(
  rows: readonly LedgerRow[],
  now: Date,
  sub: TestSubscription,
): LedgerDigestLine {
  const since = now.getTime() - DAY_MS;
  const day = rows.filter((r) => rowTime(r) >= since && r.status !== "unreadable");
  const finished = day.filter((r) => r.status !== "running");
  const failures = finished.filter((r) => r.status === "failed").length;
  const known = rows.filter((r) => r.status !== "unreadable").sort(byRowTime);
  const state = testState(classifyTest(classifiedRuns(known, sub), now), {
    anyRun: known.length > 0,
    failingStreak: sub.streak !== null,
    calledFlaky: calledFlaky(day, sub, since),
  });
  return {
    runs24h: day.length,
    failures24h: failures,
    passRate: finished.length > 0 ? (finished.length - failures) / finished.length : null,
    state,
    settled: finished.length,
    counted: countedFailures(day, new Date(since)),
  };
}
