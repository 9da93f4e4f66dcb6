import type { Deps } from "../slack/deps.ts";
import { DigestStore } from "../state/digests.ts";
import { recordHeartbeat } from "../state/heartbeat.ts";
import { LeaseStore } from "../state/lease.ts";
import type { Subscription } from "../state/subscription-types.ts";
import { mapLimit } from "../util/map-limit.ts";
import { pollCollectionSubscription } from "./collections.ts";
import { isDue, sendDigest } from "./digest.ts";
import type { PollOutcome } from "./outcome.ts";
import type { PollContext } from "./poll-context.ts";
import { pollTestSubscription } from "./test-runs.ts";

/**
 * Subscriptions one invocation polls. An idle poll is one vendor request, and an alert adds
 * up to three (evidence, post, edit): 10 keeps the worst case under the Free plan's 50
 * subrequests per invocation.
 */
export const CHUNK_SIZE = 10;
const CONCURRENCY = 4;
/** Shorter than the cron interval, so a crashed holder never blocks the next cycle. */
const LEASE_SECONDS = 50;

export type PollChunk = { keys: string[]; at: string };

export type ChunkReport = { polled: number; skipped: number; posts: number; writes: number; errors: number };

export type CycleReport = ChunkReport & {
  subscriptions: number;
  queuedChunks: number;
  digestsSent: number;
};

function poll(sub: Subscription, ctx: PollContext): Promise<PollOutcome> {
  return sub.kind === "test" ? pollTestSubscription(sub, ctx) : pollCollectionSubscription(sub, ctx);
}

/** Polls the given subscriptions; a failure of one never stops the others. */
export async function pollChunk(deps: Deps, keys: string[], now: Date, owner: string): Promise<ChunkReport> {
  const leases = new LeaseStore(deps.kv);
  const report: ChunkReport = { polled: 0, skipped: 0, posts: 0, writes: 0, errors: 0 };
  await mapLimit(keys, CONCURRENCY, async (key) => {
    try {
      const sub = await deps.subscriptions.getByKey(key);
      if (!sub || sub.paused) {
        report.skipped++;
        return;
      }
      let leased = false;
      const ctx: PollContext = {
        deps,
        now,
        lease: async () => {
          leased = await leases.acquire(key, owner, now.getTime(), LEASE_SECONDS);
          if (leased) report.writes++;
          return leased;
        },
      };
      try {
        const outcome = await poll(sub, ctx);
        report.polled++;
        report.posts += outcome.posts;
        if (outcome.error) report.errors++;
        if (outcome.next) {
          await deps.subscriptions.update(outcome.next);
          report.writes++;
        }
      } finally {
        // Released only after the new state is stored, so the next holder sees it.
        if (leased) await leases.release(key, owner);
      }
    } catch (error) {
      // Corrupt state or KV trouble: logged by class only, retried next cycle.
      report.errors++;
      console.error(`poll of ${key} failed: ${error instanceof Error ? error.name : "unknown"}`);
    }
  });
  return report;
}

async function runDueDigests(deps: Deps, now: Date): Promise<{ sent: number; writes: number }> {
  const store = new DigestStore(deps.kv);
  const due = Object.entries(await store.all()).filter(([, schedule]) => isDue(schedule, now));
  let sent = 0;
  let writes = 0;
  for (const [channelId, schedule] of due) {
    const subscriptions = await deps.subscriptions.listForChannel(channelId);
    const outcome = await sendDigest(deps, channelId, schedule, subscriptions, now);
    if (outcome.kind === "retry") continue;
    if (outcome.kind === "sent") sent++;
    // Re-read so a `/decipher digest` change made meanwhile is not overwritten.
    const latest = await store.get(channelId);
    if (latest && latest.time === schedule.time && latest.zone === schedule.zone) {
      await store.set(channelId, outcome.next);
      writes++;
    }
  }
  return { sent, writes };
}

export type CycleOptions = {
  now: Date;
  /** Fan-out for chunks beyond the first; without it every chunk is polled here. */
  queue?: Queue<PollChunk> | undefined;
  owner?: string;
};

/**
 * One cron tick: polls the first chunk of subscriptions here and hands the rest to the queue,
 * sends the digests that are due, and leaves a heartbeat for `/decipher status`.
 */
export async function runPollCycle(deps: Deps, options: CycleOptions): Promise<CycleReport> {
  const { now } = options;
  const owner = options.owner ?? crypto.randomUUID();
  const keys = await deps.subscriptions.listKeys();
  const chunks: string[][] = [];
  for (let i = 0; i < keys.length; i += CHUNK_SIZE) chunks.push(keys.slice(i, i + CHUNK_SIZE));

  let queuedChunks = 0;
  let inline = chunks;
  if (options.queue && chunks.length > 1) {
    const rest = chunks.slice(1);
    await options.queue.sendBatch(rest.map((chunk) => ({ body: { keys: chunk, at: now.toISOString() } })));
    queuedChunks = rest.length;
    inline = chunks.slice(0, 1);
  }

  const report: CycleReport = {
    subscriptions: keys.length,
    queuedChunks,
    digestsSent: 0,
    polled: 0,
    skipped: 0,
    posts: 0,
    writes: 0,
    errors: 0,
  };
  for (const chunk of inline) {
    const r = await pollChunk(deps, chunk, now, owner);
    report.polled += r.polled;
    report.skipped += r.skipped;
    report.posts += r.posts;
    report.writes += r.writes;
    report.errors += r.errors;
  }
  const digests = await runDueDigests(deps, now);
  report.digestsSent = digests.sent;
  report.writes += digests.writes;
  await recordHeartbeat({ at: now.toISOString(), subscriptions: keys.length, failed: report.errors }).catch(
    () => {},
  );
  return report;
}
