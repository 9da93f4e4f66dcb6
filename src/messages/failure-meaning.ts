import type { TestInfo, TestRun } from "../decipher/types.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { stripSource, type TestAlertEvidence } from "../model/alert-evidence.ts";
import type { FailureContext } from "../model/failure-context.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { RunRecord } from "../model/run-record.ts";
import type { TestClassification } from "../model/test-classification.ts";
import { type TriageState, triageLines } from "./alert-status.ts";
import { actions, context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { DATE_FORMAT_AHEAD, dateToken, escapeMrkdwn, link, oneLine } from "./mrkdwn.ts";
import { productionImpactLine } from "./production-impact-blocks.ts";
import { runStrip } from "./run-strip.ts";
import { resubscribeCommand, triageControls } from "./triage-controls.ts";

const LABEL: Record<string, string> = {
  "new-failure": ":new: new failure",
  broken: ":red_circle: broken",
  flaky: ":large_yellow_circle: flaky",
  failing: ":x: failing",
};

/** "🆕 new failure — failed after 6 runs passed": the failure's class, in words. */
export function classLine(classification: { kind: string; reason: string }, icon = true): string {
  const label = LABEL[classification.kind] ?? "";
  const words = icon ? label : label.replace(/^:[a-z_]+: /, "");
  return label ? `${words} — ${escapeMrkdwn(classification.reason)}` : "";
}

/**
 * "🟨 flaky — failed 3 of the last 12 runs, passing in between · last runs 🟩🟥🟩🟩🟥", for
 * failed run `runId`: the strip ends with that run, whatever passed after it in the same read,
 * and so does the class when the engine gives the one of the run's moment (`classifiedThrough`).
 */
export function meaningLine(
  meaning: FailureContext,
  runId: number,
  classification: TestClassification = meaning.classification,
): string {
  const strip = runStrip(stripSource(meaning, runId));
  return [classLine(classification), strip && `last runs ${strip}`].filter(Boolean).join(" · ");
}

/** Raw: `link` escapes its label. */
const rawName = (test: TestInfo) => test.name.trim() || `Test ${test.id}`;
/** Escaped once, for text outside a link. */
const name = (test: TestInfo) => oneLine(rawName(test));

/** What the "is flaky" alert shows, and who is on it: stored when posted, re-rendered after triage. */
export type FlakyParentInput = TriageState & {
  /** The subscription, for the triage controls; null → none. */
  ref: SubscriptionRef | null;
  test: TestInfo;
  run: RunRecord;
  evidence: TestAlertEvidence | null;
  appUrl: string;
  now: Date;
  /** The thread's UTC day, "2026-02-16": its failures until that day ends go in it. */
  day: string;
};

/**
 * When a flaky thread stops taking failures: the end of its UTC day (`day`, "2026-02-16", as
 * `FlakyThread.day` keeps it). Said as a date token, so the alert stays true whenever it is read.
 */
export function flakyThreadEnd(day: string): Date | null {
  const start = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(start) ? new Date(start + 86_400_000) : null;
}

/**
 * A flaky test's failures of one day share one thread (`flaky:thread`): this opens it, once
 * a day at most, so a flapping test never floods the channel. It carries the triage controls
 * of every alert, so a flapping test can be snoozed or muted from it.
 */
export function flakyThreadParent(input: FlakyParentInput): SlackMessage {
  const { test, run, evidence, appUrl, ref } = input;
  const title = `:large_yellow_circle: ${link(testUrl(appUrl, test.id), rawName(test))} is flaky`;
  const summary = escapeMrkdwn(run.summary?.oneLineSummary ?? "").trim();
  const strip = evidence && evidence.recentRuns.length > 0 ? runStrip(evidence.recentRuns) : "";
  // Run #N's own class: said when it is "flaky", which the title says; a run that reads
  // otherwise on its own (later runs of the same look made the test flaky) shows its strip only.
  const flaky = evidence?.classification?.kind === "flaky" ? evidence.classification : null;
  const figures = [flaky ? classLine(flaky) : "", strip && `last runs ${strip}`].filter(Boolean).join(" · ");
  // The figures are the first flaky failure's, kept through every edit while the thread's replies
  // count on ("failed 10 of the last 20"): they say which run they are as of, as a failure card does.
  const meaning = figures && `At run #${run.id}: ${figures}`;
  const status = triageLines(input, input.now, resubscribeCommand({ kind: "test", id: test.id }));
  return fitMessage({
    text: `${name(test)} is flaky${flaky ? `: ${flaky.reason} (at run #${run.id})` : ""}`,
    blocks: [
      section(
        `${title} — ${link(runUrl(appUrl, run.testId, run.id), `run #${run.id}`)} failed${summary ? `: ${summary}` : ""}`,
      ),
      context(
        meaning,
        // "Holds", not "go": still true when read after the day ended.
        `This thread holds its failures until ${dateToken(flakyThreadEnd(input.day), DATE_FORMAT_AHEAD)}; \`flaky:alert\` alerts on each, \`flaky:digest\` only counts them.`,
      ),
      ...(status.length > 0 ? [context(status.join("\n"))] : []),
      ...actions(
        ...triageControls({
          ref,
          snoozed: Boolean(input.snooze),
          muted: Boolean(input.muted),
          name: rawName(test),
        }),
      ),
    ],
  });
}

export function flakyThreadReply(
  test: TestInfo,
  run: TestRun,
  meaning: FailureContext | null,
  appUrl: string,
  classification?: TestClassification,
): SlackMessage {
  const summary = escapeMrkdwn(run.summary?.oneLineSummary ?? "").trim();
  const line = `${link(runUrl(appUrl, run.testId, run.id), `Run #${run.id}`)} of ${name(test)} failed${summary ? `: ${summary}` : ""}`;
  return fitMessage({
    text: `${name(test)}: run #${run.id} failed (flaky)`,
    blocks: [section(line), ...(meaning ? [context(meaningLine(meaning, run.id, classification))] : [])],
  });
}

/** The digest's "tests vs production" lines, one per test that names its page. */
export function withProductionLines(
  message: SlackMessage,
  lines: readonly { testName: string; impact: ImpactResult }[],
): SlackMessage {
  if (lines.length === 0) return message;
  const text = lines.map((l) => `• ${oneLine(l.testName)}: ${productionImpactLine(l.impact)}`).join("\n");
  return fitMessage({
    text: message.text,
    blocks: [...message.blocks, section(`*Tests vs production*\n${text}`)],
  });
}
