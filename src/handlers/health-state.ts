import type { Env } from "../config.ts";
import { overLine } from "../messages/clock-pace.ts";
import type { EngineHealth } from "../model/alert-control.ts";
import { type Governed, governPace, type Plan } from "../model/plan-governor.ts";
import { registryDirectory } from "../objects/addresses.ts";

/** Past this, an uptime monitor watching `/health` should page someone: alerts have stopped. */
export const STALE_AFTER_SECONDS = 15 * 60;

/**
 * How long `/health` waits for a successful poll at the governor's pace: a subscription tells
 * the registry of its successes when it renews its lease, every 5 minutes at full speed but every
 * 12 polls on a slowed clock (hourly: 12 hours), so a few slowed subscriptions may go that long
 * without a word while every poll succeeds. Never less than STALE_AFTER_SECONDS.
 */
export const staleAfterSeconds = (governed: Governed): number =>
  Math.max(STALE_AFTER_SECONDS, (governed.pace.renewMs + governed.pace.idleMs) / 1000);
/**
 * The minute cron is the watchdog of every object's clock and the clock of the digests and
 * weekly reports: three minutes without it is a problem even while the objects' own alarms
 * still poll (and `lastSuccessfulPollAt` stays fresh).
 */
export const WATCHDOG_LATE_AFTER_SECONDS = 3 * 60;

const ageSeconds = (iso: string | null, now: number) =>
  iso === null ? null : Math.max(0, Math.round((now - Date.parse(iso)) / 1000));

/** What `GET /health` and `GET /health/deep` read of the clocks, from the registry's totals. */
export type HealthState = {
  health: EngineHealth;
  lastSuccessfulPollAgeSeconds: number | null;
  watchdogAgeSeconds: number | null;
  /** Subscriptions, and no successful poll for STALE_AFTER_SECONDS. */
  stale: boolean;
  watchdogLate: boolean;
  governed: Governed;
};

export function healthState(health: EngineHealth, plan: Plan, now: number): HealthState {
  // Before any poll succeeded, the wait counts from the first cycle: a new install is not stale.
  const waited = ageSeconds(health.lastSuccessAt ?? health.firstCycleAt, now);
  const watchdogAgeSeconds = ageSeconds(health.lastCycleAt, now);
  const governed = governPace(plan, health.subscriptions, health.teams);
  return {
    health,
    lastSuccessfulPollAgeSeconds: ageSeconds(health.lastSuccessAt, now),
    watchdogAgeSeconds,
    stale: health.subscriptions > 0 && waited !== null && waited > staleAfterSeconds(governed),
    watchdogLate: watchdogAgeSeconds !== null && watchdogAgeSeconds > WATCHDOG_LATE_AFTER_SECONDS,
    governed,
  };
}

/** The state from the registry's directory (one query there), or null when it does not answer. */
export async function readHealthState(env: Env, plan: Plan): Promise<HealthState | null> {
  // A registry that cannot be reached (or is not bound) is a problem to report, not a 500.
  const health = await Promise.resolve()
    .then(() => registryDirectory(env).totals())
    .catch(() => null);
  return health && healthState(health, plan, Date.now());
}

/** `/health`'s problems: each a sentence, none quoting a configured value. */
export function healthProblems(state: HealthState): string[] {
  const { health, watchdogAgeSeconds } = state;
  const over = overLine(state.governed);
  return [
    ...(state.stale
      ? [`no successful poll for over ${Math.round(staleAfterSeconds(state.governed) / 60)} minutes`]
      : []),
    ...(state.watchdogLate
      ? [
          `the minute cron (the watchdog, digests and weekly reports) last ran ${Math.floor((watchdogAgeSeconds ?? 0) / 60)} minutes ago`,
        ]
      : []),
    ...(health.slackWorkspace
      ? [`Slack refuses the bot (${health.slackWorkspace.code}) since ${health.slackWorkspace.since}`]
      : []),
    ...(health.overdue > 0
      ? [`${health.overdue} failed run(s) seen over 5 minutes ago have not been told`]
      : []),
    ...(over ? [over] : []),
  ];
}
