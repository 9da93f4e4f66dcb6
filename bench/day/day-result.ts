import type { Tally } from "./counting-types.ts";

/** What bench/day/day.bench.ts measures for one size (one `DAY_JSON` line), for bench/day/day.ts. */

export type InvocationStats = {
  count: number;
  maxInternal: number;
  maxExternal: number;
  maxWallMs: number;
  wallMs: number;
};

export type DayResult = {
  n: number;
  teams: number;
  channels: number;
  /** Minutes simulated, from 00:00 UTC. */
  windowMinutes: number;
  warmMinutes: number;
  outageAt: number;
  outageSpanMinutes: number;
  /** The running totals at these minutes of the simulated day (setup before minute 0 included). */
  marks: Record<string, Tally>;
  /** By what the harness invoked: "alarm subscriptions", "alarm channels", "worker" (the cron)… */
  invocations: Record<string, InvocationStats>;
  /** Seconds from a run's failure to the first Slack post naming it. */
  latency: { seenRunning: number[]; other: number[]; neverSeenRunning: number; neverOther: number };
  alarmsNotFound: number;
  /** Slack Web API calls over the whole simulation (setup excluded), by method. */
  slackMethods: Record<string, number>;
  /** Runs that ended after the warm-up minutes (their KV writes: the readable copies). */
  runsEnded: { passed: number; failed: number };
  setupSeconds: number;
  simulateSeconds: number;
};
