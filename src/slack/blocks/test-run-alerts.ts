import type { TestInfo, TestRun } from "../../vendor/types.ts";
import type { SlackMessage } from "../limits.ts";
import { failedRunParent, failedRunThreadReply, recoveryThreadReply } from "./failed-run-card.ts";

/**
 * @deprecated The inputs of the KV poller, kept so it renders the new layout until the
 * Durable Object engine calls `failedRunParent` / `failedRunThreadReply` /
 * `recoveryThreadReply` (failed-run-card.ts) itself. Delete with the old poller.
 */
export type FailedRunInput = {
  test: TestInfo;
  run: TestRun;
  appUrl: string;
  now: Date;
  /** Consecutive failed runs including this one; 1 for a first failure. */
  failingStreak: number;
  /** The run that passed after the streak. */
  recoveredBy?: TestRun;
};

/** @deprecated see `FailedRunInput`. */
export type RecoveryInput = { test: TestInfo; run: TestRun; failedRuns: number; appUrl: string; now: Date };

const mark = (run: TestRun) => ({ id: run.id, at: run.endTime ?? run.createdAt });

/** @deprecated Use `failedRunParent`: the old poller passes the latest run, not the first. */
export function failedRunAlert(input: FailedRunInput): SlackMessage {
  const { test, run, appUrl, now, failingStreak, recoveredBy } = input;
  return failedRunParent({
    ref: null,
    test,
    firstRun: run,
    streak: { failedRuns: failingStreak, lastRun: mark(run) },
    recoveredBy: recoveredBy ? mark(recoveredBy) : null,
    appUrl,
    now,
  });
}

/** @deprecated Use `failedRunThreadReply`. */
export function failedRunReply(input: FailedRunInput): SlackMessage {
  return failedRunThreadReply({ ...input, failedRuns: input.failingStreak });
}

/** @deprecated Use `recoveryThreadReply`. */
export function recoveryReply(input: RecoveryInput): SlackMessage {
  return recoveryThreadReply(input);
}
