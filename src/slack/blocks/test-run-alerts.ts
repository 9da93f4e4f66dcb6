import type { TestInfo, TestRun } from "../../vendor/types.ts";
import { formatDurationMs } from "../../vendor/units.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn } from "../limits.ts";
import { bold, dateToken, escapeMrkdwn, link, oneLine, plural, relativeTime } from "../mrkdwn.ts";
import { ACTION_IDS } from "./action-ids.ts";
import { actions, button, context, fields, header, section } from "./elements.ts";
import { runUrl, testUrl } from "./links.ts";

export type FailedRunInput = {
  test: TestInfo;
  run: TestRun;
  appUrl: string;
  now: Date;
  /** Consecutive failed runs including this one; 1 for a first failure. */
  failingStreak: number;
  /** The run that passed after the streak: the parent then says the test is green again. */
  recoveredBy?: TestRun;
};

export type RecoveryInput = {
  test: TestInfo;
  run: TestRun;
  /** Failed runs before this pass. */
  failedRuns: number;
  appUrl: string;
  now: Date;
};

const testName = (test: TestInfo) => oneLine(test.name) || `Test ${test.id}`;
const testLink = (test: TestInfo, appUrl: string) =>
  link(testUrl(appUrl, test.id), test.name || `Test ${test.id}`);
const runLink = (run: TestRun, appUrl: string) => link(runUrl(appUrl, run.testId, run.id), `Run #${run.id}`);

/** "failed at step 3 of 7", or "7 steps" when the vendor did not say where. */
export function failedAt(run: TestRun): string {
  const step = run.summary?.firstFailedStepNumber;
  return typeof step === "number" && Number.isFinite(step)
    ? `failed at step ${step} of ${run.totalSteps}`
    : `failed (${plural(run.totalSteps, "step")})`;
}

const summaryLine = (run: TestRun) => escapeMrkdwn(run.summary?.oneLineSummary).trim();
const runTime = (run: TestRun, now: Date) => {
  const at = run.endTime ?? run.createdAt;
  return [dateToken(at), relativeTime(at, now)].filter(Boolean).join(", ");
};

/**
 * The parent alert for a failed run. Re-rendered with a growing `failingStreak` when later
 * runs fail too, so the header always says how long the test has been red.
 */
export function failedRunAlert(input: FailedRunInput): SlackMessage {
  const { test, run, appUrl, now, failingStreak, recoveredBy } = input;
  const name = test.name.trim() || `Test ${test.id}`;
  const recovered = recoveredBy ? `passed again after ${plural(failingStreak, "failed run")}` : null;
  const title = recovered
    ? `:white_check_mark: ${name} ${recovered}`
    : failingStreak > 1
      ? `:x: ${name} is failing for ${failingStreak} runs`
      : `:x: Test failed: ${name}`;
  const summary = summaryLine(run);
  const lead = recovered
    ? `${testName(test)} ${recovered}`
    : failingStreak > 1
      ? `${testName(test)} is failing for ${failingStreak} runs`
      : `Test failed: ${testName(test)}`;
  return fitMessage({
    text: `${lead}${summary ? ` — ${truncateMrkdwn(summary, 500)}` : ""}`,
    blocks: [
      header(title),
      section(
        [`${bold("Test")} ${testLink(test, appUrl)} · ${runLink(run, appUrl)} ${failedAt(run)}`, summary]
          .filter(Boolean)
          .join("\n"),
      ),
      fields([
        ["Failed steps", `${run.failedSteps} of ${run.totalSteps}`],
        ["Duration", formatDurationMs(run.durationMs)],
        ["Triggered by", oneLine(run.triggeredBy) || "unknown"],
        ["Finished", runTime(run, now)],
      ]),
      ...actions(
        button({
          text: "Open run",
          actionId: ACTION_IDS.runOpen,
          url: runUrl(appUrl, run.testId, run.id),
          value: String(run.id),
          style: "primary",
        }),
      ),
      ...(recoveredBy
        ? [
            context(
              `Green again since ${runLink(recoveredBy, appUrl)} (${runTime(recoveredBy, now)}); the last failure is shown above${failingStreak > 1 ? ", the others are in the thread" : ""}.`,
            ),
          ]
        : failingStreak > 1
          ? [
              context(
                `Failing for ${plural(failingStreak, "consecutive run")}; later failures are in the thread.`,
              ),
            ]
          : []),
    ],
  });
}

/** A further consecutive failure, posted in the thread of the first alert. */
export function failedRunReply(input: FailedRunInput): SlackMessage {
  const { test, run, appUrl, now, failingStreak } = input;
  const summary = summaryLine(run);
  const line = `:x: ${runLink(run, appUrl)} ${failedAt(run)} · ${run.failedSteps} failed · ${formatDurationMs(run.durationMs)} · ${oneLine(run.triggeredBy) || "unknown trigger"} · ${runTime(run, now)}`;
  return fitMessage({
    text: `${testName(test)} failed again (${plural(failingStreak, "run")} in a row)${summary ? `: ${truncateMrkdwn(summary, 500)}` : ""}`,
    blocks: [
      section([line, summary].filter(Boolean).join("\n")),
      context(`${testName(test)} is failing for ${plural(failingStreak, "run")}`),
    ],
  });
}

/** The one recovery reply in the failure thread. */
export function recoveryReply(input: RecoveryInput): SlackMessage {
  const { test, run, failedRuns, appUrl, now } = input;
  const sentence = `passed again after ${plural(failedRuns, "failed run")}`;
  return fitMessage({
    text: `${testName(test)} ${sentence}`,
    blocks: [
      section(
        `:white_check_mark: ${bold(test.name || `Test ${test.id}`)} ${sentence} · ${runLink(run, appUrl)} · ${formatDurationMs(run.durationMs)} · ${runTime(run, now)}`,
      ),
    ],
  });
}
