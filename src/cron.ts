import type { Config, Env } from "./config.ts";
import { WATCHDOG_SHARDS_PER_CYCLE, WATCHDOG_WAKES_PER_CYCLE } from "./model/poll-clock.ts";
import type { PollReport } from "./model/poll-result.ts";
import { channelObject, registry, registryDirectory, subscriptionObjectByName } from "./objects/addresses.ts";
import { dueTarget } from "./objects/channel-weekly.ts";
import { quietReport } from "./objects/poll-report.ts";
import type { RegistryEntry } from "./objects/registry-object.ts";
import { describeError } from "./util/describe-error.ts";
import { mapLimit } from "./util/map-limit.ts";

/** Objects woken at once: enough to finish hundreds well within the minute. */
const CONCURRENCY = 8;
/** Calls a due report may take in one cycle: some 40 tests or collections read per call. */
const REPORT_CALLS_PER_CYCLE = 10;

export type CycleReport = {
  subscriptions: number;
  polled: number;
  busy: number;
  erroring: number;
  paused: number;
  posts: number;
  digestsSent: number;
  errors: number;
  /**
   * New failures still held for an outage decision when the cycle ended: the channel could not
   * learn whether its message names them (a lost answer), so the next cycle settles them.
   */
  held: number;
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
  const held = report.held > 0 ? `, ${report.held} failures held for an outage decision` : "";
  const done = `${report.polled} polled, ${report.busy} busy, ${report.posts} posts, ${report.digestsSent} digests sent, ${report.errors} errors${held}`;
  return `${woke}; ${done} ${JSON.stringify(report)}`;
}

function wakeOne(env: Env, config: Config, name: string, at: string): Promise<PollReport> {
  return subscriptionObjectByName(env, name)
    .wake(at, config, { renew: true, name })
    .catch((error: unknown) => {
      console.error(`poll of ${name} failed: ${describeError(error)}`);
      return quietReport(name, at, "erroring", "object unreachable");
    });
}

/** `team` of an object name `team:channel:kind:id`. */
const teamOf = (name: string) => name.split(":")[0] ?? "";

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
  const channels = [
    ...new Set(first.filter((r) => r.held || r.waitsOnChannel).map((r) => channelOf(r.name))),
  ];
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
  // Without alarms, each cycle gives every channel polled its turn to search for second copies.
  if (config.clock === "cron")
    for (const channel of new Set(names.map(channelOf)))
      await channelObject(env, channel)
        .sweep(config, at)
        .catch((error: unknown) => console.error(`sweep of ${channel}: ${describeError(error)}`));
  const reports = first.map((r) => {
    const again = told.get(r.name);
    return again ? { ...again, posts: again.posts + r.posts } : r;
  });
  // Each team's results go to its own registry shard, in one call per team.
  const byTeam = new Map<string, PollReport[]>();
  for (const r of reports) byTeam.set(teamOf(r.name), [...(byTeam.get(teamOf(r.name)) ?? []), r]);
  for (const [teamId, ofTeam] of byTeam) {
    const shard = registry(env, teamId);
    try {
      // Token or scope refusals concern the whole workspace: /health and status show them.
      const refused = ofTeam.find((r) => r.workspaceFailure);
      if (refused?.workspaceFailure)
        await shard.setWorkspaceCondition({ code: refused.workspaceFailure, since: at });
      else if (ofTeam.some((r) => r.posts > 0)) await shard.setWorkspaceCondition(null);
      await shard.recordPolls(
        at,
        ofTeam.map(({ name, status, at: when, erroringSince, overdue }) => ({
          name,
          status,
          at: when,
          erroringSince,
          overdue,
        })),
      );
    } catch (error) {
      console.error(`registry shard of ${teamId}: ${describeError(error)}`);
    }
  }
  return reports;
}

/**
 * What the registry has for this cycle: the directory names the teams whose shard has work due
 * (and hands over what is left of the registry of before), then each of those shards names its
 * expired leases and due digests. The other shards are never called.
 */
async function dueWork(
  env: Env,
  at: string,
  all: boolean,
): Promise<{ entries: RegistryEntry[]; dueDigests: string[]; adopted: string[]; errors: number }> {
  const { teams, legacy } = await registryDirectory(env).dueShards(at, {
    all,
    limit: WATCHDOG_SHARDS_PER_CYCLE,
  });
  const adopted: string[] = [];
  let errors = 0;
  for (const part of legacy) {
    try {
      await registry(env, part.teamId).adopt(part);
      adopted.push(part.teamId);
    } catch (error) {
      errors++;
      console.error(`registry of before, team ${part.teamId}: ${describeError(error)}`);
    }
  }
  const entries: RegistryEntry[] = [];
  const dueDigests: string[] = [];
  for (const teamId of new Set([...adopted, ...teams])) {
    const limit = WATCHDOG_WAKES_PER_CYCLE - entries.length;
    try {
      const due = await registry(env, teamId).beginCycle(at, { all, limit });
      entries.push(...due.entries);
      dueDigests.push(...due.dueDigests);
    } catch (error) {
      errors++;
      console.error(`registry shard of ${teamId}: ${describeError(error)}`);
    }
  }
  return { entries, dueDigests, adopted, errors };
}

/**
 * One cron tick, the watchdog and the digest clock: wakes the subscription objects whose lease
 * has passed (their own alarms poll them otherwise; with `clock: "cron"` it wakes them all),
 * and the channels whose digest or weekly report is due. It reads the shards' directory and
 * calls only the shards and objects that need it, so it costs the same at 10 or 10,000
 * subscriptions, in one team or a thousand.
 */
export async function runPollCycle(
  env: Env,
  config: Config,
  options: { now: Date; everything?: boolean },
): Promise<CycleReport> {
  const at = options.now.toISOString();
  const work = await dueWork(env, at, config.clock === "cron" || options.everything === true);
  // Sorted, a channel's subscriptions are woken together, so its outage window sees them all.
  const names = work.entries.map((e) => e.name).sort();
  const reports = await pollNames(env, config, names, at);
  await registryDirectory(env).endCycle(at, {
    polledOk: reports.some((r) => r.status === "ok"),
    adopted: work.adopted,
  });

  let digestsSent = 0;
  let errors = work.errors + reports.filter((r) => r.error).length;
  for (const name of work.dueDigests) {
    try {
      // The shards list daily digests and weekly reports (src/objects/channel-weekly.ts).
      const due = dueTarget(name);
      const channel = channelObject(env, due.channel);
      // A big channel's report is read over several calls, each one invocation of its object
      // with its own subrequests; what is still unread after these waits for the next cycle.
      for (let call = 0; call < REPORT_CALLS_PER_CYCLE; call++) {
        const done = await (due.weekly
          ? channel.sendDueWeekly(at, config)
          : channel.sendDueDigest(at, config));
        if (done.sent) digestsSent++;
        if (!done.more) break;
      }
    } catch (error) {
      errors++;
      console.error(`digest of ${name} failed: ${describeError(error)}`);
    }
  }
  return {
    subscriptions: names.length,
    polled: reports.filter((r) => r.status !== "busy" && r.status !== "waiting").length,
    busy: reports.filter((r) => r.status === "busy").length,
    erroring: reports.filter((r) => r.status === "erroring").length,
    paused: reports.filter((r) => r.status === "paused").length,
    posts: reports.reduce((n, r) => n + r.posts, 0),
    digestsSent,
    errors,
    held: reports.filter((r) => r.held || r.waitsOnChannel).length,
    writes: {
      storage: reports.reduce((n, r) => n + r.writes.storage, 0),
      kv: reports.reduce((n, r) => n + r.writes.kv, 0),
    },
  };
}
