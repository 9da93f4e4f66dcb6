import type { FailureContext } from "../model/failure-context.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { TestInfo, TestRun } from "../vendor/types.ts";
import { context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { escapeMrkdwn, link, oneLine } from "./mrkdwn.ts";
import { productionImpactLine } from "./production-impact-blocks.ts";
import { runStrip } from "./run-strip.ts";

const LABEL: Record<string, string> = {
  "new-failure": ":new: new failure",
  broken: ":red_circle: broken",
  flaky: ":large_yellow_circle: flaky",
  failing: ":x: failing",
};

/** "🆕 new failure — failed after 6 runs passed": the failure's class, in words. */
export function classLine(classification: { kind: string; reason: string }): string {
  const label = LABEL[classification.kind] ?? "";
  return label ? `${label} — ${escapeMrkdwn(classification.reason)}` : "";
}

/** "🟨 flaky — failed 3 of the last 12 runs, passing in between · last runs 🟩🟥🟩🟩🟥". */
export function meaningLine(meaning: FailureContext): string {
  const strip = runStrip(meaning.recent ?? meaning.history);
  return [classLine(meaning.classification), strip && `last runs ${strip}`].filter(Boolean).join(" · ");
}

/** Raw: `link` escapes its label. */
const rawName = (test: TestInfo) => test.name.trim() || `Test ${test.id}`;
/** Escaped once, for text outside a link. */
const name = (test: TestInfo) => oneLine(rawName(test));

/**
 * A flaky test's failures of one day share one thread (`flaky:thread`): this opens it, once
 * a day at most, so a flapping test never floods the channel.
 */
export function flakyThreadParent(
  test: TestInfo,
  run: TestRun,
  meaning: FailureContext,
  appUrl: string,
): SlackMessage {
  const title = `:large_yellow_circle: ${link(testUrl(appUrl, test.id), rawName(test))} is flaky`;
  const summary = escapeMrkdwn(run.summary?.oneLineSummary ?? "").trim();
  return fitMessage({
    text: `${name(test)} is flaky: ${meaning.classification.reason}`,
    blocks: [
      section(
        `${title} — ${link(runUrl(appUrl, run.testId, run.id), `run #${run.id}`)} failed${summary ? `: ${summary}` : ""}`,
      ),
      context(
        meaningLine(meaning),
        "Its failures today go in this thread; `flaky:alert` alerts on each, `flaky:digest` only counts them.",
      ),
    ],
  });
}

export function flakyThreadReply(
  test: TestInfo,
  run: TestRun,
  meaning: FailureContext | null,
  appUrl: string,
): SlackMessage {
  const summary = escapeMrkdwn(run.summary?.oneLineSummary ?? "").trim();
  const line = `${link(runUrl(appUrl, run.testId, run.id), `Run #${run.id}`)} of ${name(test)} failed${summary ? `: ${summary}` : ""}`;
  return fitMessage({
    text: `${name(test)}: run #${run.id} failed (flaky)`,
    blocks: [section(line), ...(meaning ? [context(meaningLine(meaning))] : [])],
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
