import type { CountMark } from "../model/subscription.ts";
import { seriesChart, sparkline, withAlternative } from "./charts.ts";
import { context } from "./elements.ts";
import type { MessageBlock } from "./limits.ts";
import { bold } from "./mrkdwn.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Mar 4 09:40" in UTC: short enough for a chart label, and the same for every reader. */
function utcLabel(at: Date): string {
  const hh = String(at.getUTCHours()).padStart(2, "0");
  const mm = String(at.getUTCMinutes()).padStart(2, "0");
  return `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()} ${hh}:${mm}`;
}

/**
 * A collection's session count at each of its alerts (the first: the count it grew from),
 * as a line: growth that speeds up reads at a glance. Pure: the marks are what the alerts
 * already saw (`CollectionSubscription.counts`). Needs two marks; one per minute at most.
 */
export function growthChartBlocks(marks: readonly CountMark[] | undefined): MessageBlock[] {
  const byLabel = new Map<string, number>();
  for (const mark of [...(marks ?? [])].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
    const at = new Date(mark.at);
    if (Number.isNaN(at.getTime()) || !Number.isFinite(mark.count)) continue;
    byLabel.set(utcLabel(at), mark.count);
  }
  const points = [...byLabel].slice(-20);
  if (points.length < 2) return [];
  const counts = points.map(([, count]) => count);
  const chart = seriesChart({
    id: "chart_collection_growth",
    title: "Sessions in this collection, at each alert",
    type: "line",
    categories: points.map(([label]) => label),
    series: [{ name: "Sessions", values: counts }],
    xLabel: "UTC",
    yLabel: "sessions",
  });
  return withAlternative(chart, [
    context(`${bold("Sessions at each alert")}: ${counts.join(" → ")} ${sparkline(counts)}`),
  ]);
}
