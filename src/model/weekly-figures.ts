import type { TestRun } from "../decipher/types.ts";
import { settledById } from "./test-classification.ts";

/**
 * What a week of a test's runs says, for the weekly report. Pure: the runs (any order), the
 * local date of each run's creation, and nothing else.
 */
export type WeekTestFigures = {
  /** Runs read, running ones included. */
  runs: number;
  settled: number;
  failures: number;
  /** Passes right after a failure (by run id): each is a failure streak that ended. */
  recoveries: number;
  /** Changes between passed and failed, in id order: how much the test flips. */
  flips: number;
  /** Per local date (`YYYY-MM-DD`): settled runs that passed and that failed. */
  perDay: Record<string, { passed: number; failed: number }>;
};

export function weekTestFigures(
  runs: readonly TestRun[],
  dateOf: (run: TestRun) => string | null,
): WeekTestFigures {
  const settled = settledById(runs);
  let recoveries = 0;
  let flips = 0;
  const perDay: WeekTestFigures["perDay"] = {};
  settled.forEach((run, i) => {
    const before = settled[i - 1];
    if (before && before.status !== run.status) {
      flips++;
      if (run.status === "passed") recoveries++;
    }
    const date = dateOf(run);
    if (!date) return;
    const day = perDay[date] ?? { passed: 0, failed: 0 };
    if (run.status === "passed") day.passed++;
    else if (run.status === "failed") day.failed++;
    perDay[date] = day;
  });
  return {
    runs: new Set(runs.map((r) => r.id)).size,
    settled: settled.length,
    failures: settled.filter((r) => r.status === "failed").length,
    recoveries,
    flips,
    perDay,
  };
}

/**
 * The flakiest tests of the week: those that failed and recovered at least twice (so not one
 * long break), most flips first, then the larger share of failures.
 */
export function flakiest<T extends { figures: WeekTestFigures }>(tests: readonly T[], top = 3): T[] {
  const share = (f: WeekTestFigures) => (f.settled > 0 ? f.failures / f.settled : 0);
  return tests
    .filter((t) => t.figures.recoveries >= 2 && t.figures.failures >= 2)
    .sort((a, b) => b.figures.flips - a.figures.flips || share(b.figures) - share(a.figures))
    .slice(0, top);
}
