/**
 * The rules that keep alerts quiet, in one place: what makes a test flaky, broken or newly
 * failing (src/model/test-classification.ts), and what makes several failures one outage
 * (src/cron.ts). `/decipher help` and the README name them.
 */

/** Every threshold of the classification, in one place so the engine and the help text agree. */
export const CLASSIFY_THRESHOLDS = {
  /** A failure is "new" when at least this many settled runs passed right before it. */
  newFailureAfterPasses: 5,
  /** This many failed runs in a row (the latest included) make a test "broken". */
  brokenAfterFailures: 3,
  /**
   * Flakiness is judged over the runs that are both among the last `flakyWindowRuns` settled
   * runs and created within `flakyWindowMs` of now: the smaller of the two windows. A test
   * that runs every minute is judged on its last 20 runs (the last 20 minutes); a test that
   * runs every two hours on the 12 of the last day, so a flake from last week is forgotten.
   */
  flakyWindowRuns: 20,
  flakyWindowMs: 24 * 60 * 60 * 1000,
  /** At least this many failures in the window, with a pass between the first and the last… */
  flakyMinFailures: 2,
  /**
   * …and either at most this share of its runs (a test that mostly passes and fails now and
   * then: two flakes among five runs already say so; a test that runs fewer than 5 times a day
   * is never called flaky this way)…
   */
  flakyMaxFailureShare: 0.4,
  /**
   * …or, whatever the share, it failed again after passing at least this many times (three
   * separate failures or blocks of them: F P F P F). A test that keeps flipping at 50 % is
   * flaky, not a fresh break each time it fails after a pass: under the share cap alone every
   * such failure was a top-level alert. One relapse is not enough at a high share: a long
   * break, one pass, and a failure again (FFFFFF P F) is still failing, not flaky. The latest
   * streak wins over both: 3 failures in a row are broken.
   */
  flakyRelapsesAnyShare: 2,
} as const;

/**
 * An outage: this many of a channel's tests failing in one cycle, or this share of them (at
 * least `atLeast`). While one of the tests it named still fails, and for `quietMs` after the
 * last of them passed again, the outage is open: a test of the channel that fails meanwhile (a
 * bad deploy reaches each test at its own schedule; a recovered system flares up again) joins
 * its message instead of alerting alone or opening a second outage message. Never longer than
 * `openForMs` after it was posted: an outage of hours is a new event after the first.
 */
export const OUTAGE = {
  tests: 3,
  share: 0.8,
  atLeast: 2,
  openForMs: 60 * 60_000,
  quietMs: 10 * 60_000,
} as const;

/** Several tests failing in one cycle are one event: `held` of the channel's `tests` failing together. */
export function isOutage(held: number, tests: number): boolean {
  return held >= OUTAGE.tests || (held >= OUTAGE.atLeast && held >= OUTAGE.share * tests);
}

/**
 * Whether an outage message is still open: posted at `at`, less than `openForMs` ago, and one
 * of the tests it named (by id) has not passed again since, or the last recovery
 * (`lastRecoveredAt`) was less than `quietMs` ago. Without that time (a record stored before it
 * was kept) an outage whose tests all passed again is over.
 */
export function outageStillOpen(
  outage: {
    at: string;
    named: readonly number[];
    recovered: readonly number[];
    lastRecoveredAt?: string | null;
  },
  now: Date,
): boolean {
  if (outage.named.length === 0 || now.getTime() - Date.parse(outage.at) >= OUTAGE.openForMs) return false;
  if (outage.named.some((id) => !outage.recovered.includes(id))) return true;
  const quietSince = outage.lastRecoveredAt ? Date.parse(outage.lastRecoveredAt) : Number.NaN;
  return now.getTime() - quietSince < OUTAGE.quietMs;
}
