import type { CountMark } from "../model/subscription.ts";
import { seriesChart, sparkline, withAlternative } from "./charts.ts";
import { context } from "./elements.ts";
import type { MessageBlock } from "./limits.ts";
import { bold } from "./mrkdwn.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const two = (n: number) => String(n).padStart(2, "0");

/** "Mar 4 09:40" (or "Mar 4 09:40:12") in UTC: short enough for a chart label, the same for every reader. */
function utcLabel(at: Date, seconds: boolean): string {
  const time = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}${seconds ? `:${two(at.getUTCSeconds())}` : ""}`;
  return `${MONTHS[at.getUTCMonth()]} ${at.getUTCDate()} ${time}`;
}

/** One point per label, the latest count winning: labels must be unique. */
function pointsBy(marks: readonly { at: Date; count: number }[], seconds: boolean): [string, number][] {
  const byLabel = new Map<string, number>();
  for (const mark of marks) byLabel.set(utcLabel(mark.at, seconds), mark.count);
  return [...byLabel];
}

/**
 * A collection's session count at each of its alerts (the first: the count it grew from),
 * as a line: growth that speeds up reads at a glance. Pure: the marks are what the alerts
 * already saw (`CollectionSubscription.counts`). Needs two marks; labelled by the minute, or
 * by the second when two marks share a minute, or numbered when they share a second.
 */
export function growthChartBlocks(marks: readonly CountMark[] | undefined): MessageBlock[] {
  const timed = (marks ?? [])
    .map((m) => ({ at: new Date(m.at), count: m.count }))
    .filter((m) => !Number.isNaN(m.at.getTime()) && Number.isFinite(m.count))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const byMinute = pointsBy(timed, false);
  const bySecond = byMinute.length < timed.length ? pointsBy(timed, true) : byMinute;
  // Alerts within one second (a test's clock, a replay): numbered, so none is lost.
  const numbered = (): [string, number][] =>
    timed.map((m, i) => [`${i + 1}. ${utcLabel(m.at, true).slice(-8)}`, m.count]);
  const points = (bySecond.length < timed.length ? numbered() : bySecond).slice(-20);
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
