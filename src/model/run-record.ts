import type { TestRun, TestRunStatus, TestRunSummary } from "../decipher/types.ts";

/**
 * A run as the bot keeps it in an alert's state (the first run a streak or the day's flaky
 * alert shows): its own record, copied field by field from the vendor's run when the alert
 * opens, so stored state never carries the vendor's wire type or a field it added. A run the
 * vendor sent is one of these too, which is what the message builders take.
 */
export type RunRecord = {
  id: number;
  testId: number;
  status: TestRunStatus;
  startTime: string;
  endTime: string | null;
  durationMs: number | null;
  triggeredBy: string;
  createdAt: string;
  summary: TestRunSummary | null;
  totalSteps: number;
  failedSteps: number;
};

export function runRecord(run: TestRun): RunRecord {
  const { id, testId, status, startTime, endTime, durationMs, triggeredBy, createdAt, summary } = run;
  return {
    id,
    testId,
    status,
    startTime,
    endTime,
    durationMs,
    triggeredBy,
    createdAt,
    summary: summary && {
      oneLineSummary: summary.oneLineSummary,
      firstFailedStepNumber: summary.firstFailedStepNumber,
    },
    totalSteps: run.totalSteps,
    failedSteps: run.failedSteps,
  };
}
