/**
 * Every threshold of the classification (src/model/test-classification.ts), in one place so
 * the engine and the help text agree; src/model/noise-rules.ts has the rest of the rules.
 * Imported as a namespace (`import * as CLASSIFY_THRESHOLDS`): each threshold is a constant of
 * its own, which the bundler writes in place of `CLASSIFY_THRESHOLDS.<name>`.
 */
/** A failure is "new" when at least this many settled runs passed right before it. */
export const newFailureAfterPasses = 5;
/** This many failed runs in a row (the latest included) make a test "broken". */
export const brokenAfterFailures = 3;
/**
 * Flakiness is judged over the runs that are both among the last `flakyWindowRuns` settled
 * runs and created within `flakyWindowMs` of now: the smaller of the two windows. A test
 * that runs every minute is judged on its last 20 runs (the last 20 minutes); a test that
 * runs every two hours on the 12 of the last day, so a flake from last week is forgotten.
 */
export const flakyWindowRuns = 20;
export const flakyWindowMs = 24 * 60 * 60 * 1000;
/** At least this many failures in the window, with a pass between the first and the last… */
export const flakyMinFailures = 2;
/**
 * …and either at most this share of its runs (a test that mostly passes and fails now and
 * then: two flakes among five runs already say so; a test that runs fewer than 5 times a day
 * is never called flaky this way)…
 */
export const flakyMaxFailureShare = 0.4;
/**
 * …or, whatever the share, it failed again after passing at least this many times (three
 * separate failures or blocks of them: F P F P F). A test that keeps flipping at 50 % is
 * flaky, not a fresh break each time it fails after a pass: under the share cap alone every
 * such failure was a top-level alert. One relapse is not enough at a high share: a long
 * break, one pass, and a failure again (FFFFFF P F) is still failing, not flaky. The latest
 * streak wins over both: 3 failures in a row are broken.
 */
export const flakyRelapsesAnyShare = 2;
/**
 * A test whose latest run passed but whose window holds too many failures reads "failing"
 * (FFFFFF P F P), until this many passes in a row: its alert has said "Recovered" since the
 * first, and a run of passes is what passing means, whatever the window still holds.
 */
export const passingAgainAfterPasses = 3;
