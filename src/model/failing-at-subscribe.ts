import { byRowTime, type LedgerRow, rowTime } from "./run-ledger.ts";
import { type TestStateFacts, testState } from "./test-state.ts";

/**
 * A test that was failing when its channel subscribed: the subscribe reply says so and
 * promises to tell the channel when it passes, and its first pass after that is told, though
 * no alert of the bot's was ever open for those failures.
 */
export type FailingAtSubscribe = {
  /** The oldest of the failed runs in a row the subscription found. */
  since: string;
  failedRuns: number;
  /** The newest of them (its id, its time): the first pass after it is the one told. */
  lastRunId: number;
  lastFailedAt: string;
};

/**
 * Whether the test was failing as its baseline ledger leaves it (src/model/test-state.ts says
 * what failing means: not flaky), and since when; null when it was not. With `trigger:` only
 * that trigger's runs count, as in `facts`: another trigger's passes end nothing.
 */
export function failingAtSubscribe(
  rows: readonly LedgerRow[],
  facts: TestStateFacts | undefined,
  trigger: string | null,
): FailingAtSubscribe | null {
  if (!facts || testState(facts) !== "failing" || facts.trailingFailures === 0) return null;
  const settled = rows
    .filter(
      (r) => (r.status === "passed" || r.status === "failed") && (trigger === null || r.trigger === trigger),
    )
    .sort(byRowTime);
  const trailing = settled.slice(-facts.trailingFailures).filter((r) => r.status === "failed");
  const first = trailing[0];
  const last = trailing.at(-1);
  if (!first || !last) return null;
  return {
    since: new Date(rowTime(first)).toISOString(),
    failedRuns: trailing.length,
    lastRunId: last.id,
    lastFailedAt: new Date(rowTime(last)).toISOString(),
  };
}
