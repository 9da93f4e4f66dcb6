import { byRowTime, countedFailures, type LedgerRow, rowTime } from "../model/run-ledger.ts";
import { resolveTestOptions, type TestSubscription } from "../model/subscription.ts";
import { type ClassifiedRun, classifyTest, withEarlierStreak } from "../model/test-classification.ts";
import { type TestState, type TestStateFacts, testState, testStateFacts } from "../model/test-state.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A test's digest line as its own object knows it: from the ledger, without asking Decipher. */
export type LedgerDigestLine = {
  runs24h: number;
  failures24h: number;
  passRate: number | null;
  state: TestState;
  /** What status and Home say of the test too (src/model/test-state.ts). */
  facts: TestStateFacts;
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
 * When the bot called the test flaky within the window: its "is flaky" alert was posted since
 * then (its failures may since have gone into outage messages), one of these failures went to
 * that thread (the alert's time), or one was counted as flaky for the digest (the first's time).
 */
function calledFlakyAt(rows: readonly LedgerRow[], sub: TestSubscription, since: number): string | null {
  const thread = sub.flakyThread?.ts;
  const said = Number(thread) * 1000;
  const alertAt =
    thread !== undefined && Number.isFinite(said) && said > 0 ? new Date(said).toISOString() : null;
  if (alertAt && said >= since) return alertAt;
  const failed = rows.filter((r) => r.status === "failed" && rowTime(r) >= since);
  if (thread !== undefined && failed.some((r) => r.ts === thread || r.parentTs === thread))
    return alertAt ?? sub.flakyThread?.firstRun?.createdAt ?? null;
  const counted = failed
    .filter((r) => r.fate === "counted" && r.reason === "flaky-digest")
    .map((r) => r.decidedAt ?? r.firstSeen)
    .sort();
  return counted[0] ?? null;
}

/**
 * The facts of a test's state from its own ledger (the last 24 hours of it): the alerts'
 * classification of the same runs, so a test the alerts call flaky or failing is not
 * "passing" because its latest run passed, and what the bot told the channel.
 */
export function ledgerTestStateFacts(
  rows: readonly LedgerRow[],
  sub: TestSubscription,
  now: Date,
): TestStateFacts {
  const since = now.getTime() - DAY_MS;
  const readable = rows.filter((r) => r.status !== "unreadable").sort(byRowTime);
  const known = readable.filter((r) => rowTime(r) >= since);
  const earlier = classifiedRuns(
    readable.filter((r) => rowTime(r) < since),
    sub,
  );
  const watched = classifiedRuns(known, sub);
  return testStateFacts(classifyTest(withEarlierStreak(watched, earlier), now), {
    // Runs its `trigger:` leaves out are not its runs: none of them is "under way".
    anyRun: watched.length > 0,
    failingStreak: sub.streak !== null,
    calledFlakyAt: calledFlakyAt(known, sub, since),
  });
}

/**
 * The last 24 hours of a test's ledger as the digest shows them. Its state is the facts its
 * object stored at its last poll (the ones status and Home show), or, for a subscription not
 * polled since they were kept, the same facts read from the ledger now.
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
  const facts = sub.stateFacts ?? ledgerTestStateFacts(rows, sub, now);
  return {
    // The runs its failures and pass rate are of (the weight of the day in the digest's trend too):
    // one still running is counted once it ends.
    runs24h: finished.length,
    failures24h: failures,
    passRate: finished.length > 0 ? (finished.length - failures) / finished.length : null,
    state: testState(facts),
    facts,
    counted: countedFailures(day, new Date(since)),
  };
}
