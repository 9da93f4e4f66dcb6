import type { RunRecord, RunStatus, TestRecord } from "../model.ts";
import type { Rng } from "../rng.ts";
import { triggers } from "./templates.ts";

export type RunOverrides = {
  failedSteps?: number;
  totalSteps?: number;
  oneLineSummary?: string;
  firstFailedStepNumber?: number | null;
  triggeredBy?: string;
};

/**
 * A run record. Finished runs get an end time, a duration and a summary; a running one has
 * none of them (null), as the vendor documents.
 */
export function makeRun(
  rng: Rng,
  test: TestRecord,
  failures: readonly string[],
  id: number,
  status: RunStatus,
  startTime: number,
  createdAt: number,
  overrides: RunOverrides = {},
): RunRecord {
  const run: RunRecord = {
    id,
    testId: test.id,
    status: "running",
    createdAt,
    startTime,
    endTime: null,
    durationMs: null,
    triggeredBy: overrides.triggeredBy ?? rng.pick(triggers),
    summary: null,
    totalSteps: overrides.totalSteps ?? test.steps,
    failedSteps: 0,
  };
  if (status !== "running")
    finishRun(rng, run, status, startTime + rng.int(40_000, 240_000), failures, overrides);
  return run;
}

/** Moves a run to passed/failed at `endTime`, filling what a finished run carries. */
export function finishRun(
  rng: Rng,
  run: RunRecord,
  status: Exclude<RunStatus, "running">,
  endTime: number,
  failures: readonly string[],
  overrides: RunOverrides = {},
): void {
  run.status = status;
  run.endTime = Math.max(endTime, run.startTime);
  run.durationMs = run.endTime - run.startTime;
  if (overrides.totalSteps !== undefined) run.totalSteps = overrides.totalSteps;
  if (overrides.triggeredBy !== undefined) run.triggeredBy = overrides.triggeredBy;
  const total = run.totalSteps;
  if (status === "passed") {
    run.failedSteps = overrides.failedSteps ?? 0;
    run.summary = {
      oneLineSummary: overrides.oneLineSummary ?? `All ${total} steps passed`,
      firstFailedStepNumber: overrides.firstFailedStepNumber ?? null,
    };
    return;
  }
  const first =
    overrides.firstFailedStepNumber !== undefined
      ? overrides.firstFailedStepNumber
      : rng.int(Math.min(2, total), Math.max(1, total));
  run.failedSteps = overrides.failedSteps ?? rng.int(1, Math.max(1, total - (first ?? 1) + 1));
  run.summary = {
    oneLineSummary: overrides.oneLineSummary ?? (failures.length ? rng.pick(failures) : "A step failed"),
    firstFailedStepNumber: first,
  };
}
