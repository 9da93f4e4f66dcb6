import { createRng } from "../../dev/emulator/rng.ts";

/**
 * The simulated day's schedule (issue #35, "Measure it: a simulated day"), pure: what happens to
 * which subscription when, in minutes from 00:00 UTC. Nothing here knows how the engine polls.
 * - Nine subscriptions in ten are tests: each runs 24 times a day (hourly, at its own minute),
 *   each run `running` for RUN_MINUTES, one run in ten failing.
 * - One in ten is a collection: it grows now and then (every 3 to 6 hours, by 1 to 8 sessions).
 * - Once a day, for OUTAGE_MINUTES, a third of the tests (every third one) have a run that fails
 *   at once (created failed: a failure no poll saw running), their starts spread over the outage.
 */

export const RUNS_PER_DAY = 24;
export const RUN_MINUTES = 3;
export const FAILING_SHARE = 0.1;
export const OUTAGE_MINUTES = 10;
/** The day's outage starts here (minutes after 00:00 UTC) unless a window moves it. */
export const OUTAGE_AT_MINUTE = 13 * 60 + 7;
/** Tests share a channel 20 at a time (the figure BENCHMARKS' "Clock" day assumed). */
export const SUBSCRIPTIONS_PER_CHANNEL = 20;

export type Subject = { index: number; kind: "test" | "collection" };

export type PlanEvent =
  | { at: number; kind: "run-start"; subject: number; fails: boolean; runKey: string }
  | { at: number; kind: "run-end"; subject: number; fails: boolean; runKey: string }
  | { at: number; kind: "outage-failure"; subject: number; runKey: string }
  | { at: number; kind: "growth"; subject: number; sessions: number };

export const subjectsOf = (n: number): Subject[] =>
  Array.from({ length: n }, (_, index) => ({ index, kind: index % 10 === 9 ? "collection" : "test" }));

/**
 * Every event of the day whose time falls in [from, to) minutes, in time order. The same `seed`
 * gives the same day, so a shorter window is a slice of the longer one.
 */
export function planDay(
  n: number,
  from: number,
  to: number,
  outageAt = OUTAGE_AT_MINUTE,
  seed = 35,
): PlanEvent[] {
  const events: PlanEvent[] = [];
  const rng = createRng(seed);
  let testNo = 0;
  for (const s of subjectsOf(n)) {
    const phase = (rng.next() * (24 * 60)) / RUNS_PER_DAY;
    if (s.kind === "test") {
      for (let r = 0; r < RUNS_PER_DAY; r++) {
        const at = phase + (r * 24 * 60) / RUNS_PER_DAY;
        const fails = rng.next() < FAILING_SHARE;
        const runKey = `${s.index}:${r}`;
        events.push({ at, kind: "run-start", subject: s.index, fails, runKey });
        events.push({ at: at + RUN_MINUTES, kind: "run-end", subject: s.index, fails, runKey });
      }
      if (testNo % 3 === 0)
        events.push({
          at: outageAt + rng.next() * OUTAGE_MINUTES,
          kind: "outage-failure",
          subject: s.index,
          runKey: `${s.index}:outage`,
        });
      testNo++;
    } else {
      for (let at = phase * 3; at < 24 * 60; at += 180 + rng.next() * 180)
        events.push({ at, kind: "growth", subject: s.index, sessions: 1 + Math.floor(rng.next() * 8) });
    }
  }
  return events.filter((e) => e.at >= from && e.at < to).sort((a, b) => a.at - b.at);
}
