import type { TestInfo, TestRun } from "../vendor/types.ts";
import { formatDurationMs } from "../vendor/units.ts";
import { actions, button, section } from "./elements.ts";
import { dateToken, link, oneLine, plural } from "./mrkdwn.ts";
import { runStrip } from "./run-strip.ts";
import { UNFURL_LINK_ACTION_ID, type UnfurlBlock, unfurlBlocks } from "./unfurl-blocks.ts";

/** A run as an unfurl needs it (and as the cache stores it). */
export type RunFacts = Pick<
  TestRun,
  "id" | "status" | "createdAt" | "durationMs" | "totalSteps" | "failedSteps" | "summary"
>;

export type TestLookup = {
  test: TestInfo;
  /** Newest first, at most ten: the strip. */
  recent: RunFacts[];
  lastFailure: RunFacts | null;
  /** Only for run links: the run itself. */
  run: RunFacts | null;
};

export type TestUnfurlInput = {
  /** The link as shared (a test or a run link). */
  url: string;
  lookup: TestLookup;
};

const STATUS = {
  passed: ":large_green_square: passed",
  failed: ":red_square: failed",
  running: ":white_large_square: running",
};

function summaryLine(run: RunFacts): string {
  return run.summary?.oneLineSummary ? `“${oneLine(run.summary.oneLineSummary)}”` : "";
}

function runLine(run: RunFacts): string {
  const step =
    run.status === "failed" && run.summary?.firstFailedStepNumber
      ? `step ${run.summary.firstFailedStepNumber} of ${run.totalSteps}`
      : run.totalSteps > 0
        ? plural(run.totalSteps, "step")
        : "";
  const duration = run.durationMs !== null ? formatDurationMs(run.durationMs) : "";
  const head = [
    `*Run #${run.id}*`,
    STATUS[run.status] ?? run.status,
    step,
    duration,
    dateToken(run.createdAt),
  ]
    .filter(Boolean)
    .join(" · ");
  return [head, summaryLine(run)].filter(Boolean).join("\n");
}

/**
 * A test (or run) link, explained: the test's name, its last ten runs as a strip (newest
 * last), the last failure in one line, and for a run link that run's status, step and summary.
 */
export function testUnfurl({ url, lookup }: TestUnfurlInput): UnfurlBlock[] {
  const { test, recent, lastFailure, run } = lookup;
  const strip = runStrip(recent);
  const passed = recent.filter((r) => r.status === "passed").length;
  const finished = recent.filter((r) => r.status !== "running").length;
  const lines = [
    `*${link(test.url || url, test.name)}*`,
    strip
      ? `${strip}  ${passed}/${finished} passed (last ${plural(recent.length, "run")}, newest last)`
      : "_No runs yet._",
    lastFailure
      ? `Last failure ${dateToken(lastFailure.createdAt)}: ${summaryLine(lastFailure) || `run ${lastFailure.id}`}`
      : recent.length > 0
        ? "No failed run on record."
        : "",
  ].filter(Boolean);
  return unfurlBlocks(
    [
      section(lines.join("\n")),
      ...(run ? [section(runLine(run))] : []),
      ...actions(button({ text: run ? "Open run" : "Open test", actionId: UNFURL_LINK_ACTION_ID, url })),
    ],
    null,
    0,
  );
}
