import type { TestRun } from "../decipher/types.ts";

/**
 * What a test's recent history says about it, so the engine can tell a fresh break (alert
 * now) from a test that keeps flipping (thread or digest) and from an outage already
 * announced (one message, not one per run). Pure: the runs and the clock come in, nothing
 * is read or stored.
 */

import * as CLASSIFY_THRESHOLDS from "./classify-thresholds.ts";

export type TestKind = "new-failure" | "broken" | "flaky" | "failing" | "passing" | "unknown";

/** What the classification reads of a run: a vendor run or a ledger row read as one. */
export type ClassifiedRun = Pick<TestRun, "id" | "status" | "createdAt">;

export type TestClassification<R extends ClassifiedRun = TestRun> = {
  /**
   * - `unknown`: no settled run yet.
   * - `broken`: the last `brokenAfterFailures` or more settled runs failed (wins over the rest).
   * - `flaky`: the window holds 2 or more failures with a pass between them, and either at
   *   most 40 % of its runs failed or it failed again after passing twice (wins over
   *   `new-failure`: a test that flakes once in a while, or keeps flipping, would otherwise
   *   alert every time). The thresholds and their reasons: src/model/classify-thresholds.ts.
   * - `new-failure`: the latest settled run failed after at least 5 passes in a row.
   * - `failing`: the latest settled run failed, and none of the above says more.
   * - `passing`: the latest settled run passed, and the test is not flaky.
   */
  kind: TestKind;
  /** The newest settled run (by id), or null when there is none. */
  latest: R | null;
  /** Failed runs in a row, newest first; 0 when the latest settled run passed. */
  trailingFailures: number;
  /** Passed runs in a row right before those failures (when the latest passed: its streak). */
  passesBefore: number;
  /**
   * The flakiness window: how many settled runs it holds, how many of them failed, and
   * whether it passed between two of those failures (they are not one block).
   */
  window: { runs: number; failures: number; flipping: boolean; relapses: number };
  /** One short sentence for people ("failed 3 runs in a row"). */
  reason: string;
};

/** Settled runs oldest first by id (the vendor's list order is undocumented), each id once. */
export function settledById<R extends ClassifiedRun>(runs: readonly R[]): R[] {
  const byId = new Map<number, R>();
  for (const run of runs) if (run.status !== "running") byId.set(run.id, run);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The day's runs, preceded by the failures of a streak that began before the day when none of
 * the day's runs passed: a streak's length is a fact of the streak, not of the day the bot reads
 * ("failed 6 runs in a row" for a test failing every 6 hours, not 4).
 */
export function withEarlierStreak<R extends ClassifiedRun>(day: readonly R[], earlier: readonly R[]): R[] {
  if (day.some((run) => run.status === "passed")) return [...day];
  const first = Math.min(...day.map((run) => run.id));
  const before = settledById(earlier.filter((run) => run.id < first));
  const lastPass = before.findLastIndex((run) => run.status !== "failed");
  return [...before.slice(lastPass + 1), ...day];
}

/** Whether the runs before the day reach back to the start of the day's failing streak. */
export function earlierStreakKnown(
  day: readonly ClassifiedRun[],
  earlier: readonly ClassifiedRun[],
): boolean {
  if (day.some((run) => run.status === "passed")) return true;
  const first = Math.min(...day.map((run) => run.id));
  return earlier.some((run) => run.id < first && run.status === "passed");
}

/** How many runs from the end (newest) have `status` in a row. */
function streakFromEnd(runs: readonly ClassifiedRun[], status: TestRun["status"], end = runs.length): number {
  let n = 0;
  for (let i = end - 1; i >= 0 && runs[i]?.status === status; i--) n++;
  return n;
}

/** The runs flakiness is judged on: the last N settled runs, minus those older than the time window. */
export function flakyWindow<R extends ClassifiedRun>(settled: readonly R[], now: Date): R[] {
  const oldest = now.getTime() - CLASSIFY_THRESHOLDS.flakyWindowMs;
  // An unreadable time cannot be placed in the last 24 h, so it is left out rather than guessed.
  return settled
    .slice(-CLASSIFY_THRESHOLDS.flakyWindowRuns)
    .filter((run) => Date.parse(run.createdAt) >= oldest);
}

/** How many times the test failed again after passing, within the window (F P F: once). */
function relapses(window: readonly ClassifiedRun[]): number {
  let n = 0;
  let failedBefore = false;
  for (let i = 0; i < window.length; i++) {
    const run = window[i] as ClassifiedRun;
    if (run.status !== "failed") continue;
    if (failedBefore && window[i - 1]?.status === "passed") n++;
    failedBefore = true;
  }
  return n;
}

/**
 * Failures not in one block, and either few of them or many flips: one rule for the alerts,
 * the digest and the weekly report (src/model/classify-thresholds.ts says why these numbers).
 */
function looksFlaky(window: { runs: number; failures: number; relapses: number }): boolean {
  if (window.failures < CLASSIFY_THRESHOLDS.flakyMinFailures || window.relapses < 1) return false;
  return (
    window.failures <= CLASSIFY_THRESHOLDS.flakyMaxFailureShare * window.runs ||
    window.relapses >= CLASSIFY_THRESHOLDS.flakyRelapsesAnyShare
  );
}

const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
/** "failed 3 runs in a row", but "its last run failed": one run is no row. */
const inARow = (verb: "failed" | "passed", n: number) =>
  n === 1 ? `its last run ${verb}` : `${verb} ${runs(n)} in a row`;

export function classifyTest<R extends ClassifiedRun>(
  history: readonly R[],
  now: Date,
): TestClassification<R> {
  const settled = settledById(history);
  const latest = settled.at(-1) ?? null;
  const trailingFailures = streakFromEnd(settled, "failed");
  const passesBefore = streakFromEnd(settled, "passed", settled.length - trailingFailures);
  const windowRuns = flakyWindow(settled, now);
  const relapsed = relapses(windowRuns);
  const window = {
    runs: windowRuns.length,
    failures: windowRuns.filter((run) => run.status === "failed").length,
    flipping: relapsed > 0,
    relapses: relapsed,
  };
  const base = { latest, trailingFailures, passesBefore, window };

  if (latest === null) return { ...base, kind: "unknown", reason: "no finished run yet" };
  if (trailingFailures >= CLASSIFY_THRESHOLDS.brokenAfterFailures)
    return { ...base, kind: "broken", reason: `failed ${runs(trailingFailures)} in a row` };
  if (looksFlaky(window))
    return {
      ...base,
      kind: "flaky",
      reason: `failed ${window.failures} of the last ${runs(window.runs)}, passing in between`,
    };
  if (trailingFailures === 1 && passesBefore >= CLASSIFY_THRESHOLDS.newFailureAfterPasses)
    return { ...base, kind: "new-failure", reason: `failed after ${runs(passesBefore)} passed` };
  if (trailingFailures > 0) return { ...base, kind: "failing", reason: inARow("failed", trailingFailures) };
  return { ...base, kind: "passing", reason: inARow("passed", passesBefore) };
}
