/**
 * The clock of each subscription object (docs/operations.md, "The clock"): when it polls next, when it
 * tells the registry it is alive, and how long a channel waits for its other tests before it
 * decides whether failures are one outage. Every number of the clock is here.
 */

/**
 * A run is `running`: it will pass or fail within minutes, and someone is waiting to hear.
 * 10 s keeps a failure's median delay to Slack near 5 s plus one post, and costs 6 object
 * requests a minute only while a run is open.
 */
export const RUNNING_POLL_MS = 10_000;
/**
 * Nothing is running: a run that starts and fails between two polls is seen within a minute.
 * 60 s matches what the cron did before (1,440 requests a day per subscription).
 */
export const IDLE_POLL_MS = 60_000;
/**
 * A run still `running` after this long is most likely stuck (Decipher's runs take minutes):
 * its subscription falls back to the idle pace so a hung run cannot cost 8,640 requests a day.
 */
export const RUNNING_FOR_AT_MOST_MS = 30 * 60_000;
/**
 * Each object's polls are shifted by up to this much (from a hash of its name, so the same
 * every time): a channel's 20 objects do not all call Decipher and Slack in the same second.
 */
export const JITTER_MS = 5_000;
/** A test that found a new failure asks the channel's other tests to poll within this. */
export const POLL_SOON_MS = 1_000;
/**
 * How long a channel waits, after a test's new failure, for its other tests' polls before it
 * decides alone or grouped: longer than one running-pace poll of the others (they are asked
 * to poll at once), short enough that a grouped alert is still timely.
 */
export const OUTAGE_WINDOW_MS = 15_000;
/** A decision that waits on a lost answer is tried again this much later. */
export const OUTAGE_RETRY_MS = 60_000;

/**
 * The registry's watchdog lease: an object tells the registry "alive until T" when its state
 * changes and every LEASE_RENEW_MS of polling; the cron wakes only objects whose T has passed.
 * 15 minutes is three missed renewals: a clock that stopped is restarted within 16 minutes,
 * inside the 15-minute window after which /health reports polls failing.
 */
export const LEASE_MS = 15 * 60_000;
/** Renewals: at 5 minutes, 20 subscriptions cost 5,760 registry requests a day. */
export const LEASE_RENEW_MS = 5 * 60_000;
/** Objects the watchdog wakes per invocation: well inside 1,000 operations on Cloudflare services. */
export const WATCHDOG_WAKES_PER_CYCLE = 400;
/**
 * Registry shards (one per Slack team) the watchdog looks into per invocation, each one call,
 * plus one to record the polls of those it woke objects in: with the wakes, still under 1,000.
 */
export const WATCHDOG_SHARDS_PER_CYCLE = 200;
/**
 * How close to coming due the directory's time for a shard may get before the shard tells it a
 * later one (src/objects/registry-directory.ts `publishDue`). An early directory time is safe:
 * the cron looks, finds nothing due, and hears the later time. Renewals move a lease later at
 * almost every renewal; told only near the directory's time, they cost about one directory
 * write per shard per lease instead of one per renewal.
 */
export const SHARD_CHECK_SLACK_MS = LEASE_RENEW_MS;
/**
 * How much newer a shard's last successful poll must be before the directory hears of it:
 * renewals report a success at least every LEASE_RENEW_MS, so `/health` sees one at most 10
 * minutes old while polls succeed, inside its 15-minute "no successful poll" limit.
 */
export const SHARD_SUCCESS_SLACK_MS = LEASE_RENEW_MS;
/** Old single-registry subscriptions handed to their team's shard per watchdog cycle (src/objects/registry-object.ts). */
export const LEGACY_ENTRIES_PER_CYCLE = 2_000;

/**
 * A stable number in [0, 1) from an object's name: FNV-1a, then mixed (murmur3's finalizer) so
 * names that differ only in their last digits land far apart.
 */
export function phaseOf(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}

/**
 * When an object polls next: at the running pace while one of its runs has been running for
 * less than RUNNING_FOR_AT_MOST_MS (`runningSince`: the oldest such run's first sighting),
 * otherwise at the idle pace; shifted by the object's own phase.
 */
export function nextPollAt(
  name: string,
  now: number,
  runningSince: number | null,
  pace: { runningMs: number; idleMs: number } = { runningMs: RUNNING_POLL_MS, idleMs: IDLE_POLL_MS },
): number {
  const running = runningSince !== null && now - runningSince < RUNNING_FOR_AT_MOST_MS;
  const base = running ? pace.runningMs : pace.idleMs;
  const jitter = Math.round(phaseOf(name) * (base === RUNNING_POLL_MS ? JITTER_MS / 5 : JITTER_MS));
  return now + base + jitter;
}

/**
 * A team's clock (src/objects/team-clock.ts) ticks on a grid of its pace, shifted by the team's
 * phase so teams do not all call Decipher in the same second: the first tick after `now`. The
 * grid needs nothing stored: a shard evicted between ticks finds its place.
 */
export function nextTickAt(name: string, now: number, idleMs: number): number {
  const shift = phaseOf(name) * idleMs;
  return Math.floor((now - shift) / idleMs) * idleMs + shift + idleMs;
}

/**
 * Whether this poll renews the lease: the first poll after each LEASE_RENEW_MS boundary (shifted
 * by the object's phase, so renewals spread over the period). It needs no stored time: the
 * previous poll was `sincePrevious` ago.
 */
export function leaseRenewDue(
  name: string,
  now: number,
  sincePrevious: number,
  renewMs: number = LEASE_RENEW_MS,
): boolean {
  const shift = phaseOf(name) * renewMs;
  return Math.floor((now - shift) / renewMs) !== Math.floor((now - sincePrevious - shift) / renewMs);
}

/**
 * The cron expression the sandbox's "Poll now" fires (`/__scheduled?cron=…` under wrangler dev):
 * every subscription is polled at once, not only those whose clock stopped. Cloudflare fires
 * only the expressions in wrangler.toml, so a deployment never sees it.
 */
export const POLL_EVERYTHING_CRON = "poll-everything";

/**
 * Whether something that has been failing since `since` (a digest, a weekly report, a post
 * Slack refused) is tried at `now`: each minute for the first three minutes, then every fifth.
 */
export function retryDue(since: string, now: Date): boolean {
  const minutes = Math.floor((now.getTime() - Date.parse(since)) / 60_000);
  return !(minutes >= 3 && minutes % 5 !== 0);
}
