import { IDLE_POLL_MS, LEASE_MS, LEASE_RENEW_MS, RUNNING_POLL_MS } from "./poll-clock.ts";

/**
 * The governor: Cloudflare's daily limits of the plan the Worker runs on, what a day of the
 * bot's subscriptions costs at a pace, and the fastest pace whose day stays under 80 % of every
 * limit (docs/cloudflare-limits.md names the pages). On the Free plan, an operation past a
 * daily limit fails until 00:00 UTC: every clock would stop, and nothing would tell the
 * channel. Stretching the polls before that happens, and saying so, is the only safe answer.
 */

/** The billable operations of a day that the number of subscriptions drives. */
export type DailyUse = {
  /** Durable Object requests: RPC calls and alarm invocations. */
  objectRequests: number;
  /** SQLite rows written by Durable Objects; each `setAlarm()` is billed as one. */
  rowsWritten: number;
  /** SQLite rows read by Durable Objects. */
  rowsRead: number;
};

export type Plan = {
  /** How status, Home and `/health` name it. */
  name: string;
  /** Its daily limits; null: none (Workers Paid bills use instead of refusing it). */
  daily: DailyUse | null;
};

/** The Workers Free plan's daily limits for Durable Objects (Durable Objects pricing page). */
export const FREE_PLAN: Plan = {
  name: "the Free plan",
  daily: { objectRequests: 100_000, rowsWritten: 100_000, rowsRead: 5_000_000 },
};

export const PAID_PLAN: Plan = { name: "Workers Paid", daily: null };

/**
 * The share of each daily limit a day may use: the rest is room for commands, clicks, digests
 * and a day busier than the measured one (the model is held within -2 % and +7 % of
 * `npm run bench:day`). 80 %, not the 90 % issue #35 allows, so a size that fits keeps a 20 %
 * margin, as 1,000 subscriptions must.
 */
export const DAY_SHARE = 0.8;

/** How often the clock polls: runs seen running, everything else, and lease renewals. */
export type Pace = { runningMs: number; idleMs: number; renewMs: number };

export const FULL_SPEED: Pace = { runningMs: RUNNING_POLL_MS, idleMs: IDLE_POLL_MS, renewMs: LEASE_RENEW_MS };

const MINUTE = 60_000;
const DAY_MS = 24 * 60 * MINUTE;

/**
 * The paces the governor may choose, fastest first. Fast polling of running runs is rationed
 * first (it is most of an active day's requests); then every poll is stretched alike, the lease
 * staying 15 polls long (`leaseAt`). A slowed clock renews it every 12 polls, not every 5: a
 * renewal is a registry row written (#35), and the 3 polls left are enough to try a renewal
 * that failed again (the object renews whenever its lease would end before its next poll).
 */
export const PACES: readonly Pace[] = [
  FULL_SPEED,
  { runningMs: 30_000, idleMs: MINUTE, renewMs: LEASE_RENEW_MS },
  { runningMs: MINUTE, idleMs: MINUTE, renewMs: LEASE_RENEW_MS },
  ...[2, 4, 8, 15, 30, 60].map((m) => ({
    runningMs: m * MINUTE,
    idleMs: m * MINUTE,
    renewMs: 12 * m * MINUTE,
  })),
];

/**
 * What one subscription's day costs beyond its polls and renewals, and what each of those
 * costs, from the code paths as `npm run bench:day` counted them (BENCHMARKS.md, "A simulated
 * day (#35): governor"; a test runs 24 times a day, 3 minutes each, one run in ten failing).
 * The measured whole days per subscription: 947 rows written and 2,364 requests at full speed
 * (20 subscriptions in one team), 122 and 228 every 8 minutes (200 in 4 teams), 74.6 and 41.0
 * hourly (1,000 in 17 teams).
 */
export const PROFILE = {
  /** The test's runs a day, and how long each is running. */
  runs: 24,
  runMs: 3 * MINUTE,
  /**
   * Rows one poll reads: its ledger's last 24 hours (about 24 runs, read by index) and its
   * unsettled rows, its subscription, the outbox's unknown keys.
   */
  rowsReadPerPoll: 34,
  /**
   * A renewal: the object's report to its registry shard, which writes its lease row (the
   * index by lease time, a second row, is gone: #35, docs/architecture.md "Rows written per run").
   */
  rowsWrittenPerRenewal: 1,
  /**
   * A renewal's shard adds up its team's leases to see whether the directory must hear of it
   * (src/objects/registry-object.ts `#summary`): a row read per subscription of the team.
   */
  rowsReadPerRenewalPerSubscription: 1,
  /**
   * The runs themselves, whatever the pace: the ledger's rows (a pass 2, its row and its time
   * index; a failure 5), the outbox's, the outage window's calls and rows, the state and the
   * channel's index row when a failure or a recovery changes them, the shard telling the
   * directory. Measured hourly, less the alarms, the renewals and the cron's share (4 rows less
   * since the shard tells the directory less often and stores it in one key, #35).
   */
  runsPerDay: { objectRequests: 14, rowsWritten: 67, rowsRead: 400 },
  /**
   * A run a poll sees running writes about this many rows more (its ledger row written running,
   * then again finished, and what follows from it): fitted to the 8-minute and hourly days. A
   * run is seen running when a poll falls within its 3 minutes.
   */
  rowsWrittenPerRunSeenRunning: 3.4,
  /**
   * The watchdog cron's own calls: the directory twice a minute; its times stored every other
   * minute (src/objects/registry-directory.ts `cycleStoreDue`).
   */
  cron: { objectRequests: 2 * 1_440, rowsWritten: 720, rowsRead: 10 * 1_440 },
  /**
   * A tick of a team's clock: its alarm (a request and a row), and what its shard tells the
   * directory as its subscriptions renew and change (fitted: 597 calls and about 1,000 rows a
   * day for a team of 20 at full speed).
   */
  teamTick: { objectRequests: 1.4, rowsWritten: 1.7 },
} as const;

/** How big the deployment is: its subscriptions, and the Slack teams they are in (a clock each). */
export type DeploymentSize = { subscriptions: number; teams: number };

/**
 * One subscription's day at `pace`. Its team's clock asks it to poll at the idle pace (one
 * request, the call); while a run is running and the running pace is faster, its own alarm
 * polls it (one request, and the alarm a row written).
 */
export function subscriptionDay(pace: Pace): DailyUse {
  const ownAlarm = pace.runningMs < pace.idleMs;
  // A run is first seen running half an idle interval in, on average; then polled at the running pace.
  const runningPolls = ownAlarm
    ? (PROFILE.runs * Math.max(0, PROFILE.runMs - pace.idleMs / 2)) / pace.runningMs
    : 0;
  const ticks = DAY_MS / pace.idleMs;
  const renewals = DAY_MS / pace.renewMs;
  const seenRunning = PROFILE.runs * Math.min(1, PROFILE.runMs / pace.idleMs);
  return {
    objectRequests: ticks + runningPolls + renewals + PROFILE.runsPerDay.objectRequests,
    rowsWritten:
      runningPolls +
      renewals * PROFILE.rowsWrittenPerRenewal +
      PROFILE.runsPerDay.rowsWritten +
      seenRunning * PROFILE.rowsWrittenPerRunSeenRunning,
    rowsRead: (ticks + runningPolls) * PROFILE.rowsReadPerPoll + PROFILE.runsPerDay.rowsRead,
  };
}

/**
 * The whole deployment's day: `subscriptions` at `pace` in `teams` Slack teams, whose clocks
 * tick at the idle pace (each tick an alarm: a request and a row written), and the cron.
 */
export function dayAt(pace: Pace, subscriptions: number, teams = 1): DailyUse {
  const one = subscriptionDay(pace);
  const { cron } = PROFILE;
  // A renewal's shard sums its own team's leases.
  const summaries =
    (DAY_MS / pace.renewMs) *
    (subscriptions / Math.max(1, teams)) *
    PROFILE.rowsReadPerRenewalPerSubscription;
  const ticks = subscriptions > 0 ? (teams * DAY_MS) / pace.idleMs : 0;
  return {
    objectRequests:
      cron.objectRequests + ticks * PROFILE.teamTick.objectRequests + subscriptions * one.objectRequests,
    rowsWritten: cron.rowsWritten + ticks * PROFILE.teamTick.rowsWritten + subscriptions * one.rowsWritten,
    rowsRead: cron.rowsRead + subscriptions * (one.rowsRead + summaries),
  };
}

const LIMIT_NAMES: Record<keyof DailyUse, string> = {
  objectRequests: "Durable Object requests",
  rowsWritten: "rows written",
  rowsRead: "rows read",
};

/** The governor's choice: the pace, and the limit that set it with the share of it a day uses. */
export type Governed = {
  pace: Pace;
  /** Slower than full speed. */
  stretched: boolean;
  /** The daily limit closest to being reached at this pace, and its share (0–1); null on Paid. */
  tightest: { name: string; share: number } | null;
  plan: string;
};

/** The fastest pace whose day stays under DAY_SHARE of each of the plan's limits (the slowest if none does). */
export function governPace(plan: Plan, subscriptions: number, teams = 1): Governed {
  const { daily } = plan;
  if (!daily) return { pace: FULL_SPEED, stretched: false, tightest: null, plan: plan.name };
  const tightestAt = (pace: Pace) => {
    const use = dayAt(pace, subscriptions, Math.min(Math.max(1, teams), Math.max(1, subscriptions)));
    const shares = (Object.keys(LIMIT_NAMES) as (keyof DailyUse)[]).map((k) => ({
      name: LIMIT_NAMES[k],
      share: use[k] / daily[k],
    }));
    return shares.reduce((a, b) => (b.share > a.share ? b : a));
  };
  const pace = PACES.find((p) => tightestAt(p).share <= DAY_SHARE) ?? (PACES.at(-1) as Pace);
  return { pace, stretched: pace !== FULL_SPEED, tightest: tightestAt(pace), plan: plan.name };
}

/**
 * A lease at `pace`: 15 polls long, as at full speed (src/model/poll-clock.ts LEASE_MS): a clock
 * that stopped is restarted within 15 polls of its pace, whatever its renewals.
 */
export const leaseAt = (pace: Pace) => pace.idleMs * (LEASE_MS / IDLE_POLL_MS);

export const samePace = (a: Pace, b: Pace) =>
  a.runningMs === b.runningMs && a.idleMs === b.idleMs && a.renewMs === b.renewMs;
