import type { TestInfo, TestRun } from "../decipher/types.ts";
import { formatDurationMs } from "../decipher/units.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import type { TestAlertEvidence } from "../model/alert-evidence.ts";
import { mentionToken } from "../model/mention.ts";
import type { RunRecord } from "../model/run-record.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { snoozeLine, type TriageState, triageLines } from "./alert-status.ts";
import { actions, button, context, section } from "./elements.ts";
import { classLine } from "./failure-meaning.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { bold, dateToken, link, oneLine, plural } from "./mrkdwn.ts";
import { productionImpactBlocks, productionImpactLine } from "./production-impact-blocks.ts";
import { runDurationChart } from "./run-chart.ts";
import { runStrip } from "./run-strip.ts";
import { resubscribeCommand, triageControls, unmuteButton, unsnoozeButton } from "./triage-controls.ts";

/**
 * A failed test run, Sentry-style: the parent names the FIRST failure of a streak and keeps it,
 * and only its status line changes as the streak grows, recovers or is triaged. Later failures
 * are compact thread replies. Pure: the subscription's single writer re-renders the parent
 * from its own state after every poll and every triage click.
 */

/** A run named by id and time, for lines that only point at it. */
export type RunMark = { id: number; at: string };

export type FailedRunParentInput = TriageState & {
  /** The subscription, for the triage controls; null leaves them out. */
  ref: SubscriptionRef | null;
  test: TestInfo;
  /** The first failed run of the streak: its summary and step stay on the parent. */
  firstRun: RunRecord;
  /** Failed runs so far, including the first, and the latest of them. */
  streak: { failedRuns: number; lastRun: RunMark };
  /** The run that passed after the streak. */
  recoveredBy?: RunMark | null | undefined;
  /**
   * What the alert showed when it was posted (the strip of the last 10 runs, the failure's
   * class, the production impact), stored with the streak: every re-render shows it again.
   */
  evidence?: TestAlertEvidence | null | undefined;
  /**
   * Who this alert pings (src/model/mention.ts). Given for the streak's first post only: a
   * re-rendered parent (an edit) leaves it out, so nobody is pinged twice for one failure.
   */
  mention?: string | null | undefined;
  appUrl: string;
  now: Date;
};

export type FailedRunReplyInput = {
  test: TestInfo;
  run: TestRun;
  /** Failed runs in the streak including this one. */
  failedRuns: number;
  appUrl: string;
  now: Date;
  /** Name the test in the reply (a thread shared by several tests). */
  named?: boolean;
};

export type RecoveryReplyInput = {
  test: TestInfo;
  run: TestRun;
  /** Failed runs before this pass. */
  failedRuns: number;
  /** The pass is one of those failed runs, rerun under its id at Decipher. */
  rerun?: boolean;
  appUrl: string;
  now: Date;
};

/** Raw (unescaped) name: `link` and `bold` escape it; `testName` is the escaped one for plain lines. */
const rawName = (test: TestInfo) => test.name.trim() || `Test ${test.id}`;
const testName = (test: TestInfo) => oneLine(rawName(test));
const runLink = (testId: number, run: { id: number }, appUrl: string) =>
  link(runUrl(appUrl, testId, run.id), `Run #${run.id}`);
/** "2 min ago" in each reader's clock, with the UTC time as the fallback. */
const ago = (at: string | null | undefined) => dateToken(at, "{ago}");

/** "step 3 of 12", or "12 steps" when the vendor did not say where it failed. */
export function stepText(run: RunRecord): string {
  const step = run.summary?.firstFailedStepNumber;
  return typeof step === "number" && Number.isFinite(step)
    ? `step ${step} of ${run.totalSteps}`
    : plural(run.totalSteps, "step");
}

/** "Run #10069 · step 3 of 12 · 10/12 steps failed · 1m55s · manual · 2 min ago" — one line, time once. */
export function runFacts(run: RunRecord, appUrl: string): string {
  return [
    runLink(run.testId, run, appUrl),
    stepText(run),
    `${run.failedSteps}/${run.totalSteps} steps failed`,
    formatDurationMs(run.durationMs),
    oneLine(run.triggeredBy),
    ago(run.endTime ?? run.createdAt),
  ]
    .filter((part) => part !== "" && part !== "—")
    .join(" · ");
}

const summaryLine = (run: RunRecord, max = 300) => truncateMrkdwn(oneLine(run.summary?.oneLineSummary), max);

/**
 * How a streak ended, in the words the parent and its thread share: a pass after the failures,
 * or the streak's latest failed run itself passing when Decipher reran it under its id.
 */
const passSentence = (failedRuns: number, rerunId: number | null) =>
  rerunId !== null
    ? `passed when run #${rerunId} was rerun`
    : `passed again after ${plural(failedRuns, "failed run")}`;

/** The pass that ended the streak is its latest failure, rerun (docs/architecture.md, "A deleted alert, and a rerun under one id"). */
const rerunIdOf = ({ streak, recoveredBy }: Pick<FailedRunParentInput, "streak" | "recoveredBy">) =>
  recoveredBy && recoveredBy.id === streak.lastRun.id ? recoveredBy.id : null;

/** The streak part of the status line: failing, or green again. */
export function streakLine(
  input: Pick<FailedRunParentInput, "test" | "streak" | "recoveredBy" | "appUrl" | "firstRun">,
): string {
  const { streak, recoveredBy, test, appUrl } = input;
  const firstRunId = input.firstRun.id;
  if (recoveredBy) {
    return `:white_check_mark: ${passSentence(streak.failedRuns, rerunIdOf(input))} · ${runLink(test.id, recoveredBy, appUrl)} ${ago(recoveredBy.at)}`;
  }
  if (streak.failedRuns <= 1) return "";
  // Plain "#id", not a link: the latest run has its own linked reply in the thread.
  const last =
    streak.lastRun.id !== firstRunId ? ` · last #${streak.lastRun.id} ${ago(streak.lastRun.at)}` : "";
  return `:red_circle: failing for ${plural(streak.failedRuns, "run")}${last}`;
}

/** Every status line of a test alert, most important first; empty for a fresh, untouched alert. */
export function testStatusLines(input: FailedRunParentInput): string[] {
  const resubscribe = resubscribeCommand({ kind: "test", id: input.test.id });
  // Nobody needs to look at a test that passes again: a green alert names no one looking.
  const triage = input.recoveredBy ? { ...input, acknowledgedBy: [] } : input;
  return [streakLine(input), ...triageLines(triage, input.now, resubscribe)].filter(Boolean);
}

/**
 * A failure and the pass right after it, seen in one look: one message, true as posted (the
 * card of the failure, already green), whose fallback text says both.
 */
export function failedThenPassed(card: SlackMessage, test: TestInfo): SlackMessage {
  return { ...card, text: `Test failed, then passed on the next run: ${testName(test)}` };
}

/** The parent alert of a failure streak: the first failure and its evidence, then status and controls. */
/** The strip of the last runs and the failure's class, said as of its run once the card says more. */
function evidenceLine({ evidence, recoveredBy, streak, firstRun }: FailedRunParentInput): string {
  const strip = evidence && evidence.recentRuns.length > 0 ? runStrip(evidence.recentRuns) : "";
  // A green card shows no red sign under its ✅: the class is what the failure was, in words.
  const meaning = evidence?.classification ? classLine(evidence.classification, !recoveredBy) : "";
  if (!strip && !meaning) return "";
  // Once the card says more than its run (a streak, a recovery), the evidence says whose it is.
  const whose = recoveredBy
    ? `Before it passed again, at run #${firstRun.id}:`
    : streak.failedRuns > 1
      ? `At run #${firstRun.id}:`
      : "";
  return [whose, [strip && `Last runs ${strip}`, meaning].filter(Boolean).join(" · ")]
    .filter(Boolean)
    .join(" ");
}

/** A red card's triage controls; a green one keeps only what undoes a mute, or a snooze that runs on past the recovery. */
function parentControls(
  input: FailedRunParentInput,
): MessageBlock extends never ? never : ReturnType<typeof triageControls> {
  const { ref, recoveredBy } = input;
  if (!recoveredBy)
    return triageControls({
      ref,
      snoozed: Boolean(input.snooze),
      muted: Boolean(input.muted),
      name: rawName(input.test),
    });
  if (ref && input.muted) return [unmuteButton(ref)];
  return ref && snoozeLine(input.snooze, input.now) ? [unsnoozeButton(ref)] : [];
}

export function failedRunParent(input: FailedRunParentInput): SlackMessage {
  const { test, firstRun, streak, recoveredBy, appUrl, evidence } = input;
  const summary = summaryLine(firstRun);
  // Red says what happened; green is the same card, and says in words that it recovered.
  const leadIn = recoveredBy ? ":white_check_mark: Recovered:" : ":x: Test failed:";
  const status = testStatusLines(input);
  const evidenceText = evidenceLine(input);
  const impact = evidence?.impact ? productionImpactBlocks({ impact: evidence.impact, appUrl }) : [];
  const ping = mentionToken(input.mention);
  const lead = recoveredBy
    ? `Recovered: ${testName(test)} ${passSentence(streak.failedRuns, rerunIdOf(input))}`
    : streak.failedRuns > 1
      ? `${testName(test)} is failing for ${plural(streak.failedRuns, "run")}`
      : `Test failed: ${testName(test)}`;
  const blocks: MessageBlock[] = [
    section(`${leadIn} *${link(testUrl(appUrl, test.id), rawName(test))}*`),
    ...(ping ? [context(`:bell: ${ping}`)] : []),
    context(runFacts(firstRun, appUrl)),
    ...(summary ? [section(summary)] : []),
    // The evidence is the first failure's, kept through edits: once the card says more (a longer
    // streak, a recovery), it says when the evidence is from, so "failing" never reads as now.
    ...(evidenceText ? [context(evidenceText)] : []),
    ...impact,
    ...runDurationChart(evidence?.recentRuns),
    ...(status.length > 0 ? [context(status.join("\n"))] : []),
    ...actions(
      button({
        text: "Open run",
        actionId: ACTION_IDS.runOpen,
        url: runUrl(appUrl, firstRun.testId, firstRun.id),
        value: String(firstRun.id),
      }),
      ...parentControls(input),
    ),
  ];
  const text = [
    `${lead}${summary ? ` — ${summary}` : ""}${ping ? ` ${ping}` : ""}`,
    evidence?.impact ? productionImpactLine(evidence.impact) : "",
  ]
    .filter(Boolean)
    .join("\n");
  return fitMessage({ text, blocks });
}

/** A later failure of the same streak, in the parent's thread: one compact block. */
export function failedRunThreadReply(input: FailedRunReplyInput): SlackMessage {
  const { test, run, failedRuns, appUrl } = input;
  const summary = summaryLine(run, 1000);
  // In a thread several tests share (an outage message), each reply says whose run it is.
  const who = input.named ? `${link(testUrl(appUrl, test.id), rawName(test))} · ` : "";
  return fitMessage({
    text: `${testName(test)} failed again (${plural(failedRuns, "run")} in a row)${summary ? `: ${summary}` : ""}`,
    blocks: [section([`:x: ${who}${runFacts(run, appUrl)}`, summary].filter(Boolean).join("\n"))],
  });
}

/** The one "passed again" reply in the failure thread. */
export function recoveryThreadReply(input: RecoveryReplyInput): SlackMessage {
  const { test, run, failedRuns, appUrl } = input;
  const sentence = passSentence(failedRuns, input.rerun ? run.id : null);
  const facts = [
    runLink(run.testId, run, appUrl),
    formatDurationMs(run.durationMs),
    ago(run.endTime ?? run.createdAt),
  ]
    .filter((p) => p !== "—")
    .join(" · ");
  return fitMessage({
    text: `${testName(test)} ${sentence}`,
    blocks: [section(`:white_check_mark: ${bold(rawName(test))} ${sentence} · ${facts}`)],
  });
}
