/**
 * A test's new failure, held back for one cycle to see whether other tests failed with it: what
 * the subscription hands its channel, what the channel's outage window keeps, and what an
 * outage message lists, one record throughout.
 */
export type HeldFailure = {
  testId: number;
  testName: string;
  runId: number;
  summary: string | null;
  /** The test's `mention:`: the outage message that names this failure pings each distinct one once. */
  mention?: string | null;
  /** Its next run had passed already when the failure was seen: named as passed again at once. */
  passedNext?: boolean;
};
