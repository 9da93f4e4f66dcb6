import { formatDurationMs } from "../decipher/units.ts";
import { seriesChart, sparkline, withAlternative } from "./charts.ts";
import { context } from "./elements.ts";
import type { MessageBlock } from "./limits.ts";
import type { StripRun } from "./run-strip.ts";

/** A run as the chart reads it: any list of the test's runs, any order. */
export type ChartRun = StripRun & { durationMs?: number | null };

/** Runs the chart shows at most: the last 20 settled ones, as many as Slack draws in a series. */
export const RUN_CHART_LENGTH = 20;
/** Below this many settled runs with a known duration there is no trend to see. */
const MIN_CHARTED = 5;
/** The slowest run at least this much slower than the median: a timeout or a hang shows. */
const SPREAD = 1.5;

type Timed = ChartRun & { durationMs: number };

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The duration chart alone (with its text alternative); none when the durations show nothing. */
export function runDurationChart(runs: readonly ChartRun[] | undefined): MessageBlock[] {
  const timed = [...(runs ?? [])]
    .filter(
      (r): r is Timed =>
        Number.isFinite(r.id) &&
        (r.status === "passed" || r.status === "failed") &&
        typeof r.durationMs === "number" &&
        Number.isFinite(r.durationMs) &&
        r.durationMs >= 0,
    )
    .sort((a, b) => a.id - b.id)
    .filter((r, i, all) => all[i + 1]?.id !== r.id)
    .slice(-RUN_CHART_LENGTH);
  const durations = timed.map((r) => r.durationMs);
  const helps = timed.length >= MIN_CHARTED && Math.max(...durations) >= SPREAD * median(durations);
  if (!helps) return [];
  const seconds = (r: Timed, status: string) =>
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
  const range = `${formatDurationMs(Math.min(...durations))}–${formatDurationMs(Math.max(...durations))}`;
  return withAlternative(chart, [
    context(`Durations of the last ${timed.length} runs ${sparkline(durations)} ${range}`),
  ]);
}
