import { seriesChart, withAlternative } from "./charts.ts";
import { context } from "./elements.ts";
import type { MessageBlock } from "./limits.ts";
import { runStrip, type StripRun } from "./run-strip.ts";

/** A run as the chart reads it: any list of the test's runs, any order. */
export type ChartRun = StripRun & { durationMs?: number | null };

/** Runs the chart shows at most: the last 20 settled ones, as many as Slack draws in a series. */
export const RUN_CHART_LENGTH = 20;
/** Below this many settled runs with a known duration, the strip says as much as a chart. */
const MIN_CHARTED = 5;

/**
 * A test's last runs: a bar per run, its height the duration, its colour whether it passed
 * or failed — a run that failed fast (a crash) or slow (a timeout) stands out, which the
 * strip cannot show. With too few timed runs, the strip alone; the strip is also the
 * chart's text alternative.
 */
export function runHistoryBlocks(runs: readonly ChartRun[] | undefined): MessageBlock[] {
  const strip = runs && runs.length > 0 ? runStrip(runs) : "";
  const stripBlock = strip ? [context(`Last runs ${strip}`)] : [];
  const timed = [...(runs ?? [])]
    .filter(
      (r): r is ChartRun & { durationMs: number } =>
        Number.isFinite(r.id) &&
        (r.status === "passed" || r.status === "failed") &&
        typeof r.durationMs === "number" &&
        Number.isFinite(r.durationMs) &&
        r.durationMs >= 0,
    )
    .sort((a, b) => a.id - b.id)
    .filter((r, i, all) => all[i + 1]?.id !== r.id)
    .slice(-RUN_CHART_LENGTH);
  if (timed.length < MIN_CHARTED) return stripBlock;
  const seconds = (r: ChartRun & { durationMs: number }, status: string) =>
    r.status === status ? Math.round(r.durationMs / 100) / 10 : 0;
  const chart = seriesChart({
    id: "chart_last_runs",
    title: `Last ${timed.length} runs: duration, passed or failed`,
    type: "bar",
    categories: timed.map((r) => `#${r.id}`),
    series: [
      { name: "Passed", values: timed.map((r) => seconds(r, "passed")) },
      { name: "Failed", values: timed.map((r) => seconds(r, "failed")) },
    ],
    xLabel: "run",
    yLabel: "seconds",
  });
  return withAlternative(chart, stripBlock);
}
