import {
  doRequestsOf,
  minus,
  plus,
  rowsReadOf,
  rowsWrittenOf,
  type Tally,
  zeroTally,
} from "./counting-types.ts";
import type { DayResult } from "./day-result.ts";
import { DURATION, METERS, type Meter, PER_INVOCATION, paidPerMonth } from "./limits.ts";

/**
 * From what one size's simulation counted (bench/day/day-result.ts) to a day: the steady minutes
 * (after the first WARM minutes, outside the outage's span) scaled to the day's steady minutes,
 * plus the outage's span as counted. A full simulated day is scaled the same way (its steady
 * minutes are nearly all of the day), so a window and a day compare like for like.
 */

const DAY_MINUTES = 24 * 60;

const mark = (r: DayResult, minute: number): Tally => r.marks[String(minute)] ?? zeroTally();

export type DayEstimate = { tally: Tally; steadyMinutes: number; scaled: boolean };

/** The day's counts, from the steady minutes in [warm, `until`) and the outage's span. */
export function dayOf(r: DayResult, until = r.windowMinutes): DayEstimate {
  const outEnd = r.outageAt + r.outageSpanMinutes;
  const outageInside = outEnd <= until;
  const steadyParts: Array<[number, number]> = outageInside
    ? [
        [r.warmMinutes, r.outageAt],
        [outEnd, until],
      ]
    : [[r.warmMinutes, Math.min(until, r.outageAt)]];
  let steady = zeroTally();
  let steadyMinutes = 0;
  for (const [from, to] of steadyParts) {
    if (to <= from) continue;
    steady = plus(steady, minus(mark(r, to), mark(r, from)));
    steadyMinutes += to - from;
  }
  const outage = minus(mark(r, outEnd), mark(r, r.outageAt));
  const tally = plus(outage, steady, (DAY_MINUTES - r.outageSpanMinutes) / steadyMinutes);
  return { tally, steadyMinutes, scaled: r.windowMinutes < DAY_MINUTES };
}

export const meterOf = (t: Tally): Record<Meter, number> => ({
  workerRequests: t.workerRequests,
  doRequests: doRequestsOf(t),
  rowsWritten: rowsWrittenOf(t),
  rowsRead: rowsReadOf(t),
  kvReads: t.kv.reads,
  kvWrites: t.kv.writes,
  kvDeletes: t.kv.deletes,
  kvLists: t.kv.lists,
});

export type Use = { name: string; value: number; limit: number; share: number };

/** Every Free limit the day meets: daily meters, and subrequests per invocation. */
export function usesOf(r: DayResult, day: DayEstimate): Use[] {
  const meters = meterOf(day.tally);
  const uses: Use[] = (Object.keys(METERS) as Meter[]).map((m) => ({
    name: METERS[m].label,
    value: meters[m],
    limit: METERS[m].freePerDay,
    share: meters[m] / METERS[m].freePerDay,
  }));
  const inv = Object.values(r.invocations);
  const external = Math.max(0, ...inv.map((i) => i.maxExternal));
  const internal = Math.max(0, ...inv.map((i) => i.maxInternal));
  uses.push(
    {
      name: "external subrequests in one invocation",
      value: external,
      limit: PER_INVOCATION.external,
      share: external / PER_INVOCATION.external,
    },
    {
      name: "internal subrequests in one invocation",
      value: internal,
      limit: PER_INVOCATION.internal,
      share: internal / PER_INVOCATION.internal,
    },
  );
  return uses;
}

/** The use nearest its limit (or furthest past it). */
export const tightest = (uses: Use[]): Use => uses.reduce((a, b) => (b.share > a.share ? b : a));

/** The plain line the bench ends with, one per size. */
export function verdict(n: number, uses: Use[]): string {
  const t = tightest(uses);
  const pct = (100 * t.share).toFixed(1);
  return t.share <= 1
    ? `${n} subscriptions: within Free, tightest limit ${pct} % (${t.name})`
    : `${n} subscriptions: over Free, ${t.name} at ${pct} %`;
}

/** US dollars a month on Workers Paid beyond its base, by meter, and the duration's estimate. */
export function paidOf(day: DayEstimate, durationGbSecondsPerDay: number) {
  const meters = meterOf(day.tally);
  const byMeter = Object.fromEntries(
    (Object.keys(METERS) as Meter[]).map((m) => [m, paidPerMonth(m, meters[m])]),
  ) as Record<Meter, number>;
  const duration =
    (Math.max(0, durationGbSecondsPerDay * 30 - DURATION.paidIncluded) / 1_000_000) * DURATION.paidPerMillion;
  return { byMeter, duration };
}

/**
 * Durable Object duration a day, GB-s, from the wall time of the alarms the harness ran (128 MB
 * each): an upper bound, since wall time here includes the loopback I/O an idle object would
 * hibernate through.
 */
export function durationPerDay(r: DayResult): number {
  const alarmWallMs = Object.entries(r.invocations)
    .filter(([k]) => k.startsWith("alarm "))
    .reduce((a, [, v]) => a + v.wallMs, 0);
  return ((alarmWallMs / 1000) * DURATION.gb * DAY_MINUTES) / r.windowMinutes;
}

export function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}
