import type { Config, Env } from "./config.ts";
import { WATCHDOG_WAKES_PER_CYCLE } from "./model/poll-clock.ts";
import { channelObject, registry, subscriptionObjectByName } from "./objects/addresses.ts";
import { dueTarget } from "./objects/channel-weekly.ts";
import { type PollReport, quietReport } from "./objects/subscription-object.ts";
import { describeError } from "./util/describe-error.ts";
import { mapLimit } from "./util/map-limit.ts";

/** Objects woken at once: enough to finish hundreds well within the minute. */
const CONCURRENCY = 8;

export type CycleReport = {
  subscriptions: number;
  polled: number;
  busy: number;
  failing: number;
  paused: number;
  posts: number;
  digestsSent: number;
  errors: number;
  /** Writes by the subscriptions' objects: their storage, and their KV copies. */
  writes: { storage: number; kv: number };
};

/**
 * The cron's log line, in words first: it counts the objects this tick woke (overdue leases,
 * or all of them for Poll now), not the subscriptions that exist, which poll on their own alarms.
 */
export function cycleLogLine(report: CycleReport, everything: boolean): string {
  const woke = everything
    ? `poll everything: woke all ${report.subscriptions} subscriptions`
    : `watchdog: woke ${report.subscriptions} subscriptions whose own alarm was overdue (the others poll on their own alarms)`;
  const done = `${report.polled} polled, ${report.busy} busy, ${report.posts} posts, ${report.digestsSent} digests sent, ${report.errors} errors`;
  return `${woke}; ${done} ${JSON.stringify(report)}`;
}

/** The report in a line `cycleLogLine` wrote, or null for any other line. */
export function cycleReportOf(line: unknown): CycleReport | null {
  if (typeof line !== "string" || !/^(watchdog|poll everything): /.test(line)) return null;
  return JSON.parse(line.slice(line.indexOf("{"))) as CycleReport;
}

function wakeOne(env: Env, config: Config, name: string, at: string): Promise<PollReport> {
  return subscriptionObjectByName(env, name)
    .wake(at, config, { renew: true, name })
    .catch((error: unknown) => {
      console.error(`poll of ${name} failed: ${describeError(error)}`);
      return quietReport(name, at, "failing", "object unreachable");
    });
}

/** `team:channel` of an object name `team:channel:kind:id`. */
const channelOf = (name: string) => name.split(":").slice(0, 2).join(":");

/**
 * Wakes the named objects (each polls, and hands a new failure to its channel's outage
 * window), then closes the windows of the channels they held failures in: every object that
 * could join them was just polled, so there is nothing to wait for. A channel's alarm closes
 * the same window otherwise; whichever comes first decides, once (src/objects/channel-object.ts).
 */
export async function pollNames(
  env: Env,
  config: Config,
  names: string[],
  at: string,
): Promise<PollReport[]> {
  const first = await mapLimit(names, CONCURRENCY, (name) => wakeOne(env, config, name, at));
  const channels = [...new Set(first.filter((r) => r.held).map((r) => channelOf(r.name)))];
  const told = new Map<string, PollReport>();
  for (const channel of channels) {
    const replies = await channelObject(env, channel)
      .closeWindow(config, at)
      .catch((error: unknown) => {
        // The channel could not answer: its holds stay in its storage, decided by its alarm or the next cycle.
        console.error(`outage window of ${channel}: ${describeError(error)}`);
        return [] as PollReport[];
      });
    for (const reply of replies) told.set(reply.name, reply);
  }
  const reports = first.map((r) => {
    const again = told.get(r.name);
    return again ? { ...again, posts: again.posts + r.posts } : r;
  });
  // Token or scope refusals concern the whole workspace: /health and status show them.
  const refused = reports.find((r) => r.workspaceFailure);
  const reg = registry(env);
  if (refused?.workspaceFailure)
    await reg.setWorkspaceCondition({ code: refused.workspaceFailure, since: at });
  else if (reports.some((r) => r.posts > 0)) await reg.setWorkspaceCondition(null);
  await reg.recordPolls(
    at,
    reports.map(({ name, status, at: when, failingSince, overdue }) => ({
      name,
      status,
      at: when,
      failingSince,
      overdue,
    })),
    true,
  );
  return reports;
}

/**
 * One cron tick, the watchdog and the digest clock: wakes the subscription objects whose lease
 * has passed (their own alarms poll them otherwise; with `clock: "cron"` it wakes them all),
 * and the channels whose digest or weekly report is due. It reads one index and calls only
 * the objects that need it, so it costs the same at 10 or 10,000 subscriptions.
 */
export async function runPollCycle(
  env: Env,
  config: Config,
  options: { now: Date; everything?: boolean },
): Promise<CycleReport> {
  const at = options.now.toISOString();
  const { entries, dueDigests } = await registry(env).beginCycle(at, {
    all: config.clock === "cron" || options.everything === true,
    limit: WATCHDOG_WAKES_PER_CYCLE,
  });
  // Sorted, a channel's subscriptions are woken together, so its outage window sees them all.
  const names = entries.map((e) => e.name).sort();
  const reports = await pollNames(env, config, names, at);

  let digestsSent = 0;
  let errors = reports.filter((r) => r.error).length;
  for (const name of dueDigests) {
    try {
      // The registry lists daily digests and weekly reports (src/objects/channel-weekly.ts).
      const due = dueTarget(name);
      const channel = channelObject(env, due.channel);
      if ((await (due.weekly ? channel.sendDueWeekly(at, config) : channel.sendDueDigest(at, config))).sent)
        digestsSent++;
    } catch (error) {
      errors++;
      console.error(`digest of ${name} failed: ${describeError(error)}`);
    }
  }
  return {
    subscriptions: names.length,
    polled: reports.filter((r) => r.status !== "busy" && r.status !== "waiting").length,
    busy: reports.filter((r) => r.status === "busy").length,
    failing: reports.filter((r) => r.status === "failing").length,
    paused: reports.filter((r) => r.status === "paused").length,
    posts: reports.reduce((n, r) => n + r.posts, 0),
    digestsSent,
    errors,
    writes: {
      storage: reports.reduce((n, r) => n + r.writes.storage, 0),
      kv: reports.reduce((n, r) => n + r.writes.kv, 0),
    },
  };
}
