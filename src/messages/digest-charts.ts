import { type DigestDay, HISTORY_DAYS } from "../model/digest-history.ts";
import { dayLabel, seriesChart, sparkline, withAlternative } from "./charts.ts";
import { context } from "./elements.ts";
import { type MessageBlock, truncateMrkdwn } from "./limits.ts";
import { bold, code, oneLine, plural } from "./mrkdwn.ts";

/**
 * The digest's two charts, from the daily figures the channel's digests already read
 * (src/model/digest-history.ts): pure functions of plain arrays, so where the figures come
 * from can change without touching them. A chart needs two days at least; before that the
 * digest's lines say it all.
 */

const MIN_DAYS = 2;
const MAX_SERIES = 6;

export type ChartedCollection = { id: number; name: string; path?: string | null };

/**
 * Legend names within Slack's 20 characters: the collection's page as the digest's lines
 * show it (`/checkout/payment`, its end when longer), else `#501`; `#id` again where two
 * would read the same.
 */
function seriesNames(collections: readonly ChartedCollection[]): string[] {
  const path = (c: ChartedCollection) => {
    const p = (c.path ?? "").trim();
    if (!p) return `#${c.id}`;
    return p.length <= 20 ? p : `…${p.slice(-19)}`;
  };
  const names = collections.map(path);
  return names.map((n, i) =>
    names.indexOf(n) !== i || names.lastIndexOf(n) !== i ? `#${collections[i]?.id}` : n,
  );
}

/**
 * New sessions per day of each watched collection (the busiest six), over the days the
 * busiest one has figures for; a collection watched for fewer of those days is left out of
 * the chart (the text alternative still names it).
 */
export function sessionsPerDayChart(
  days: readonly DigestDay[],
  collections: readonly ChartedCollection[],
): MessageBlock[] {
  const today = days.at(-1);
  if (!today) return [];
  const ranked = [...collections].sort(
    (a, b) => (today.collections[String(b.id)] ?? -1) - (today.collections[String(a.id)] ?? -1),
  );
  const lead = ranked[0];
  if (!lead) return [];
  const dated = days.filter((d) => String(lead.id) in d.collections);
  const covered = ranked
    .filter((c) => dated.every((d) => String(c.id) in d.collections))
    .slice(0, MAX_SERIES);
  const values = (c: ChartedCollection) => dated.map((d) => d.collections[String(c.id)] ?? 0);
  const alternative = context(
    `${bold("New sessions per day")} (oldest first):\n${ranked
      .slice(0, MAX_SERIES)
      .map((c) => {
        const series = days
          .filter((d) => String(c.id) in d.collections)
          .map((d) => d.collections[String(c.id)] ?? 0);
        return `${truncateMrkdwn(oneLine(c.name), 60)} ${code(c.path || `#${c.id}`)} ${sparkline(series)} ${series.at(-1) ?? 0} on ${oneLine(today.date)}`;
      })
      .join("\n")}`,
  );
  if (dated.length < MIN_DAYS) return [];
  const chart = seriesChart({
    id: "chart_sessions_per_day",
    title: `New sessions per day, last ${dated.length} days`,
    type: "line",
    categories: dated.map((d) => dayLabel(d.date)),
    series: seriesNames(covered).map((name, i) => ({
      name,
      values: values(covered[i] as ChartedCollection),
    })),
    yLabel: "sessions",
  });
  return withAlternative(chart, [alternative]);
}

/** The local date after `date` (`YYYY-MM-DD`), or null when `date` is not one. */
function nextDate(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1)).toISOString().slice(0, 10);
}

/**
 * Before the charts can be drawn, the digest says so and when they start, rather than leave
 * them out without a word: each digest records the figures of its own local day (no request
 * to Decipher for past days), so the first digest of a channel has one day to show.
 */
export function chartsNotYet(days: readonly DigestDay[], date: string): MessageBlock[] {
  if (days.length >= MIN_DAYS) return [];
  const next = nextDate(date);
  const when = next ? `the digest of ${next}` : "the next day's digest";
  return [
    context(
      `:bar_chart: Charts of new sessions and pass rate per day start with ${when}: each digest keeps the figures of its own day (${plural(days.length, "day")} of ${HISTORY_DAYS} recorded by ${oneLine(date)}).`,
    ),
  ];
}

/** The channel's tests together: the share of settled runs that passed, per day (in %). */
export function passRatePerDayChart(days: readonly DigestDay[]): MessageBlock[] {
  const dated = days.filter((d) => d.tests.settled > 0);
  if (dated.length < MIN_DAYS) return [];
  const rates = dated.map((d) => Math.round((100 * (d.tests.settled - d.tests.failures)) / d.tests.settled));
  const chart = seriesChart({
    id: "chart_pass_rate",
    title: `Pass rate of this channel's tests, last ${dated.length} days`,
    type: "line",
    categories: dated.map((d) => dayLabel(d.date)),
    series: [{ name: "Passed runs %", values: rates }],
    yLabel: "% of runs passed",
  });
  return withAlternative(chart, [
    context(
      `${bold("Pass rate per day")} (oldest first): ${sparkline(rates)} ${rates[0]} % → ${rates.at(-1)} %`,
    ),
  ]);
}
