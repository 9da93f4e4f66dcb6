import type { FailureContext } from "../model/failure-context.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { TestInfo, TestRun } from "../vendor/types.ts";
import { context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { escapeMrkdwn, link, oneLine } from "./mrkdwn.ts";
import { productionImpactBlocks, productionImpactLine } from "./production-impact-blocks.ts";
import { runStrip } from "./run-strip.ts";

const LABEL: Record<string, string> = {
  "new-failure": ":new: new failure",
  broken: ":red_circle: broken",
  flaky: ":large_yellow_circle: flaky",
  failing: ":x: failing",
};

/** "🟨 flaky — failed 3 of the last 12 runs, passing in between · 🟩🟥🟩🟩🟥": what a failure means. */
export function meaningLine(meaning: FailureContext, withStrip = true): string {
  const { classification, history } = meaning;
  const label = LABEL[classification.kind] ?? "";
  const strip = withStrip ? runStrip(history) : "";
  return [label && `${label} — ${escapeMrkdwn(classification.reason)}`, strip && `last runs ${strip}`]
    .filter(Boolean)
    .join(" · ");
}

/**
 * A failure alert with what the failure means added under it: its class and the strip of
 * the last 10 runs, and the production impact when the test names its page.
 */
export function withMeaning(
  message: SlackMessage,
  meaning: FailureContext | null,
  appUrl: string,
  now: Date,
  /** False when the message shows the run strip already. */
  withStrip = true,
): SlackMessage {
  if (!meaning) return message;
  const line = meaningLine(meaning, withStrip);
  const impact = meaning.impact ? productionImpactBlocks({ impact: meaning.impact, appUrl, now }) : [];
  // Before the buttons, if the alert ends with them: the meaning belongs with the facts.
  const blocks = [...message.blocks];
  const at =
    blocks.length > 0 && blocks[blocks.length - 1]?.type === "actions" ? blocks.length - 1 : blocks.length;
  blocks.splice(at, 0, ...(line ? [context(line)] : []), ...impact);
  const text = [message.text, meaning.impact ? productionImpactLine(meaning.impact) : ""]
    .filter(Boolean)
    .join("\n");
  return fitMessage({ text, blocks });
}

const name = (test: TestInfo) => oneLine(test.name) || `Test ${test.id}`;

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
  const title = `:large_yellow_circle: ${link(testUrl(appUrl, test.id), name(test))} is flaky`;
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
  const line = `${link(runUrl(appUrl, run.testId, run.id), `Run #${run.id}`)} of ${escapeMrkdwn(name(test))} failed${summary ? `: ${summary}` : ""}`;
  return fitMessage({
    text: `${name(test)}: run #${run.id} failed (flaky)`,
    blocks: [section(line), ...(meaning ? [context(meaningLine(meaning))] : [])],
  });
}

/** "Guarded by Checkout flow: last run #10069 failed": a collection alert names the tests of its page. */
export function withGuardingTests(
  message: SlackMessage,
  tests: readonly { testId: number; testName: string; lastRunId: number; failing: boolean }[],
  appUrl: string,
): SlackMessage {
  if (tests.length === 0) return message;
  const parts = tests.slice(0, 5).map((t) => {
    const test = link(testUrl(appUrl, t.testId), oneLine(t.testName) || `Test ${t.testId}`);
    const run =
      t.lastRunId > 0 ? link(runUrl(appUrl, t.testId, t.lastRunId), `#${t.lastRunId}`) : "no run yet";
    return `${test} (last run ${run} ${t.failing ? "failed" : "passed"})`;
  });
  const blocks = [...message.blocks];
  const at =
    blocks.length > 0 && blocks[blocks.length - 1]?.type === "actions" ? blocks.length - 1 : blocks.length;
  blocks.splice(at, 0, context(`:test_tube: Tests on this page: ${parts.join(", ")}`));
  return fitMessage({ text: message.text, blocks });
}

/** The digest's "tests vs production" lines, one per test that names its page. */
export function withProductionLines(
  message: SlackMessage,
  lines: readonly { testName: string; impact: ImpactResult }[],
): SlackMessage {
  if (lines.length === 0) return message;
  const text = lines
    .map((l) => `• ${escapeMrkdwn(oneLine(l.testName))}: ${productionImpactLine(l.impact)}`)
    .join("\n");
  return fitMessage({
    text: message.text,
    blocks: [...message.blocks, section(`*Tests vs production*\n${text}`)],
  });
}
