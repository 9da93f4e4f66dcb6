import type { Config, Env } from "./config.ts";
import type { PollMode } from "./engine/poll-context.ts";
import type { PollChunk } from "./model/poll-chunk.ts";
import { channelObject, objectNames, registry, subscriptionObjectByName } from "./objects/addresses.ts";
import { dueTarget } from "./objects/channel-weekly.ts";
import { type PollReport, quietReport } from "./objects/subscription-object.ts";
import { describeError } from "./util/describe-error.ts";
import { mapLimit } from "./util/map-limit.ts";

/**
 * Subscriptions one invocation polls itself. Each poll is an RPC to the subscription's own
 * object, which has its own subrequest and CPU budget; what the calling invocation spends is
 * one Durable Object request per subscription, counted against the 1,000 operations on
 * Cloudflare services an invocation may make, not against its 50 external subrequests. The
 * rest goes to the queue in chunks of this size, when there is a queue.
 */
export const CHUNK_SIZE = 200;
/** Polls in flight at once: enough to finish a cycle of hundreds well within the minute. */
const CONCURRENCY = 8;
/** A queue batch holds at most 100 messages. */
const MAX_BATCH = 100;

export type CycleReport = {
  subscriptions: number;
  queuedChunks: number;
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

function pollOne(env: Env, config: Config, name: string, at: string, mode: PollMode): Promise<PollReport> {
  return subscriptionObjectByName(env, name)
    .poll(name, at, config, mode)
    .catch((error: unknown) => {
      console.error(`poll of ${name} failed: ${describeError(error)}`);
      return quietReport(name, at, "failing", "object unreachable");
    });
}

/** `team:channel` of an object name `team:channel:kind:id`. */
const channelOf = (name: string) => name.split(":").slice(0, 2).join(":");

/**
 * New failures were held back in the first pass. Per channel, the channel's object decides:
 * several at once become one outage message that the tests adopt as their thread; a run that
 * an earlier outage message names (or may name: its answer was lost) joins that message, or
 * waits; the others alert alone.
 */
async function settleHeld(env: Env, config: Config, names: string[], first: PollReport[], at: string) {
  const byChannel = new Map<string, PollReport[]>();
  for (const report of first) {
    if (!report.held) continue;
    byChannel.set(channelOf(report.name), [...(byChannel.get(channelOf(report.name)) ?? []), report]);
  }
  const second = new Map<string, PollReport>();
  for (const [channel, held] of byChannel) {
    const tests = names.filter((n) => channelOf(n) === channel && n.split(":")[2] === "test").length;
    const [teamId = "", channelId = ""] = channel.split(":");
    const items = held.flatMap((r) => (r.held ? [r.held] : []));
    const decided = await channelObject(env, objectNames.channel(teamId, channelId))
      .postOutage(channelId, items, tests, config)
      .catch(() => null);
    // The channel could not answer: every failure stays unfated and held, and is settled next cycle.
    if (!decided) continue;
    const mode: PollMode = decided.ts ? { group: { ts: decided.ts, runIds: decided.named } } : {};
    // A run a message may already name is not polled again: it waits for that message's lookup.
    const told = held.filter((r) => r.held && !decided.waiting.includes(r.held.runId));
    const replies = await mapLimit(told, CONCURRENCY, (r) => pollOne(env, config, r.name, at, mode));
    for (const reply of replies) second.set(reply.name, reply);
  }
  return first.map((r) => {
    const again = second.get(r.name);
    return again ? { ...again, posts: again.posts + r.posts } : r;
  });
}

/** Polls the named subscriptions through their objects; one failing never stops the others. */
export async function pollNames(
  env: Env,
  config: Config,
  names: string[],
  at: string,
): Promise<PollReport[]> {
  const first = await mapLimit(names, CONCURRENCY, (name) => pollOne(env, config, name, at, { hold: true }));
  const reports = first.some((r) => r.held) ? await settleHeld(env, config, names, first, at) : first;
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

async function enqueue(queue: Queue<PollChunk>, chunks: string[][], at: string): Promise<number> {
  let sent = 0;
  try {
    for (let i = 0; i < chunks.length; i += MAX_BATCH) {
      const batch = chunks.slice(i, i + MAX_BATCH);
      await queue.sendBatch(batch.map((names) => ({ body: { names, at } })));
      sent += batch.length;
    }
  } catch (error) {
    console.error(`queue refused ${chunks.length - sent} poll chunk(s): ${describeError(error)}`);
  }
  return sent;
}

/**
 * One cron tick: asks the registry what to do, polls each subscription through its object
 * (the first chunk here, the rest through the queue), and wakes the channels whose digest is due.
 */
export async function runPollCycle(
  env: Env,
  config: Config,
  options: { now: Date; queue?: Queue<PollChunk> | undefined; chunkSize?: number },
): Promise<CycleReport> {
  const at = options.now.toISOString();
  const { entries, dueDigests } = await registry(env).beginCycle(at);
  // Sorted, a channel's subscriptions share a chunk, so its outage check sees them together.
  const names = entries.map((e) => e.name).sort();
  const chunks: string[][] = [];
  const size = options.chunkSize ?? CHUNK_SIZE;
  for (let i = 0; i < names.length; i += size) chunks.push(names.slice(i, i + size));

  let inline = chunks;
  let queuedChunks = 0;
  if (options.queue && chunks.length > 1) {
    const rest = chunks.slice(1);
    queuedChunks = await enqueue(options.queue, rest, at);
    // What the queue refused is polled here: slower, never skipped.
    inline = [chunks[0] as string[], ...rest.slice(queuedChunks)];
  }
  const reports = (await Promise.all(inline.map((chunk) => pollNames(env, config, chunk, at)))).flat();
  if (names.length === 0) await registry(env).recordPolls(at, [], true);

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
    queuedChunks,
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
