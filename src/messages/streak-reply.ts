import type { TestInfo, TestRun } from "../decipher/types.ts";
import { failedRunThreadReply, recoveryThreadReply } from "./failed-run-card.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { oneLine, plural } from "./mrkdwn.ts";

/** Failures one reply tells, each in its own block: a longer burst takes more replies. */
export const FAILURES_PER_REPLY = 8;

export type StreakReplyInput = {
  test: TestInfo;
  /** The streak's failures read in this look, oldest first: one to `FAILURES_PER_REPLY`. */
  runs: readonly TestRun[];
  /** Failed runs in the streak up to and including the last of `runs`. */
  failedRuns: number;
  /** The pass read with them that ended the streak, if any. */
  recoveredBy: TestRun | null;
  appUrl: string;
  now: Date;
  /** Name the test in the reply (a thread shared by several tests). */
  named?: boolean;
};

/**
 * What one look read of an open streak, as one thread reply: its further failures, and the pass
 * that ended them: a burst read at once is a reply per `FAILURES_PER_REPLY` failures, never a
 * reply per run in the same second.
 */
export function streakReply(input: StreakReplyInput): SlackMessage {
  const { test, runs, failedRuns, recoveredBy, appUrl, now } = input;
  const first = failedRuns - runs.length + 1;
  const replies = runs.map((run, i) =>
    failedRunThreadReply({ test, run, failedRuns: first + i, appUrl, now, named: input.named }),
  );
  const only = replies[0];
  if (only && replies.length === 1 && !recoveredBy) return only;
  const recovery = recoveredBy
    ? recoveryThreadReply({ test, run: recoveredBy, failedRuns, appUrl, now })
    : null;
  const name = oneLine(test.name.trim() || `Test ${test.id}`);
  const text = recoveredBy
    ? `${name} failed ${plural(runs.length, "more run")}, then passed again after ${plural(failedRuns, "failed run")}`
    : `${name} failed ${plural(runs.length, "more run")} (${plural(failedRuns, "run")} in a row)`;
  return fitMessage({
    text,
    blocks: [...replies.flatMap((r) => r.blocks), ...(recovery?.blocks ?? [])],
  });
}
