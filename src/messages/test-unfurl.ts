import type { TestInfo, TestRun } from "../decipher/types.ts";
import { formatDurationMs } from "../decipher/units.ts";
import { STRIP_RUNS } from "../model/alert-evidence.ts";
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
 * A run link's strip is the test's runs when the link was shared, not the run's: a run that
 * the test has run past says so plainly, naming the newest of those runs and its time, so the
 * line stays true however late it is read.
 */
function sinceLine(run: RunFacts, recent: readonly RunFacts[]): string {
  const later = recent.filter((r) => r.id > run.id && r.status !== "running");
  const newest = later.reduce<RunFacts | null>((a, b) => (!a || b.id > a.id ? b : a), null);
  if (!newest) return "";
  // The run is older than every run the strip holds: more ran since than it shows.
  const more = recent.length >= STRIP_RUNS && !recent.some((r) => r.id <= run.id) ? "+" : "";
  const runs = `${later.length}${more} finished ${later.length === 1 && !more ? "run" : "runs"}`;
  return `_Ran again since: ${runs}, up to run #${newest.id}, which ${oneLine(newest.status)} ${dateToken(newest.createdAt)}._`;
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
      ...(run ? [section([runLine(run), sinceLine(run, recent)].filter(Boolean).join("\n"))] : []),
      ...actions(button({ text: run ? "Open run" : "Open test", actionId: UNFURL_LINK_ACTION_ID, url })),
    ],
    null,
    0,
  );
}
