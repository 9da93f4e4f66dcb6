import type { Deps } from "../slack/deps.ts";
import { firstDigestFailure, recordDigestFailure } from "../state/digest-attempts.ts";
import { type DigestSchedule, DigestStore } from "../state/digests.ts";
import { recordHeartbeat } from "../state/heartbeat.ts";
import { LeaseStore } from "../state/lease.ts";
import type { Subscription } from "../state/subscription-types.ts";
import { mapLimit } from "../util/map-limit.ts";
import { pollCollectionSubscription } from "./collections.ts";
import { isDue, sendDigest } from "./digest.ts";
import { type PollOutcome, slackRetryDue } from "./outcome.ts";
import type { PollContext } from "./poll-context.ts";
import { pollTestSubscription } from "./test-runs.ts";

/**
 * Subscriptions one invocation polls: an idle poll is one vendor request, so 10 leave room
 * within the Free plan's 50 subrequests for the Slack calls of alerts (SLACK_CALLS_PER_CHUNK)
 * and an evidence or backlog read or two.
 */
export const CHUNK_SIZE = 10;
const CONCURRENCY = 4;
/** Slack calls one invocation may make; a poll that would need more leaves the rest for later. */
export const SLACK_CALLS_PER_CHUNK = 25;
/**
 * Held only while a poll posts and stores; released right after. Long enough that no slow
 * poll (Slack 429 waits, a hanging call) outlives it and lets the next minute's cycle repost;
 * a crashed holder delays that subscription's alerts by at most this.
 */
const LEASE_SECONDS = 300;

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
  const slackBudget = { remaining: SLACK_CALLS_PER_CHUNK };
  await mapLimit(keys, CONCURRENCY, async (key) => {
    try {
      const sub = await deps.subscriptions.getByKey(key);
      if (!sub || sub.paused || !slackRetryDue(sub, now)) {
        report.skipped++;
        return;
      }
      let leased = false;
      let current: boolean | null = null;
      /**
       * Every write happens under the lease, and only if the stored state is still the one
       * this poll started from: a rival cycle that got there first (or an unsubscribe) wins,
       * and this poll's view, now stale, is dropped rather than posted or written back.
       */
      const takeLease = async () => {
        if (current !== null) return current;
        if (await leases.acquire(key, owner, now.getTime(), LEASE_SECONDS)) {
          leased = true;
          report.writes++;
          const fresh = await deps.subscriptions.getByKey(key);
          current = fresh !== null && JSON.stringify(fresh) === JSON.stringify(sub);
        } else {
          current = false;
        }
        return current;
      };
      const ctx: PollContext = { deps, now, lease: takeLease, slackBudget };
      try {
        const outcome = await poll(sub, ctx);
        report.polled++;
        report.posts += outcome.posts;
        if (outcome.error) report.errors++;
        if (outcome.next && (await takeLease())) {
          // Last look: a `/decipher unsubscribe` (or a changed growth:) that landed while this
          // poll was posting wins over writing the poll's copy back.
          const latest = await deps.subscriptions.getByKey(key);
          if (latest !== null && JSON.stringify(latest) === JSON.stringify(sub)) {
            await deps.subscriptions.update(outcome.next);
            report.writes++;
          }
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

/**
 * A due digest goes out at the first cycle that sees it (also after missed crons). One that
 * failed to go out (Slack or Decipher failing) is tried each minute for three minutes, then
 * every fifth minute: each try costs a lease write.
 */
async function digestRetryDue(channelId: string, schedule: DigestSchedule, now: Date): Promise<boolean> {
  const failed = await firstDigestFailure(channelId, schedule.nextDueAt);
  if (!failed) return true;
  const minutes = Math.floor((now.getTime() - failed.getTime()) / 60_000);
  return minutes < 3 || minutes % 5 === 0;
}

async function runDueDigests(
  deps: Deps,
  now: Date,
  owner: string,
): Promise<{ sent: number; writes: number }> {
  const store = new DigestStore(deps.kv);
  const leases = new LeaseStore(deps.kv);
  const due = Object.entries(await store.all()).filter(([, schedule]) => isDue(schedule, now));
  let sent = 0;
  let writes = 0;
  for (const [channelId, seen] of due) {
    if (!(await digestRetryDue(channelId, seen, now))) continue;
    const subject = `digest:${channelId}`;
    if (!(await leases.acquire(subject, owner, now.getTime(), LEASE_SECONDS))) continue;
    writes++;
    try {
      // Under the lease, the stored schedule decides: a rival may have sent it meanwhile.
      const schedule = await store.get(channelId);
      if (!schedule || !isDue(schedule, now) || schedule.nextDueAt !== seen.nextDueAt) continue;
      const subscriptions = await deps.subscriptions.listForChannel(channelId);
      const outcome = await sendDigest(deps, channelId, schedule, subscriptions, now);
      if (outcome.kind === "retry") {
        await recordDigestFailure(channelId, schedule.nextDueAt, now);
        continue;
      }
      if (outcome.kind === "sent") sent++;
      // Re-read so a `/decipher digest` change made meanwhile is not overwritten.
      const latest = await store.get(channelId);
      if (latest && latest.time === schedule.time && latest.zone === schedule.zone) {
        await store.advance(channelId, outcome.next);
        writes++;
      }
    } finally {
      await leases.release(subject, owner);
    }
  }
  return { sent, writes };
}

/** A queue batch holds at most 100 messages. */
const MAX_BATCH = 100;
/** Chunks polled here, besides the first, when the queue refuses (quota, outage): ≈ the Free plan's subrequests. */
const FALLBACK_CHUNKS = 2;

/** Sends chunks in batches; returns how many were accepted before the queue refused, if it did. */
async function enqueue(queue: Queue<PollChunk>, chunks: string[][], now: Date): Promise<number> {
  let sent = 0;
  try {
    for (let i = 0; i < chunks.length; i += MAX_BATCH) {
      const batch = chunks.slice(i, i + MAX_BATCH);
      await queue.sendBatch(batch.map((keys) => ({ body: { keys, at: now.toISOString() } })));
      sent += batch.length;
    }
  } catch (error) {
    console.error(
      `queue refused ${chunks.length - sent} poll chunk(s): ${error instanceof Error ? error.name : "error"}`,
    );
  }
  return sent;
}

/** Which refused chunks to poll here: rotating with the minute, so each gets its turn. */
function fallbackChunks(refused: string[][], now: Date): string[][] {
  if (refused.length === 0) return [];
  const start = Math.floor(now.getTime() / 60_000) % refused.length;
  return Array.from(
    { length: Math.min(FALLBACK_CHUNKS, refused.length) },
    (_, i) => refused[(start + i) % refused.length] as string[],
  );
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
  if (now.getUTCMinutes() === 0) {
    const restored = await deps.subscriptions.reconcileIndex().catch(() => 0);
    if (restored > 0) console.warn(`restored ${restored} subscription(s) missing from the index`);
  }
  const keys = await deps.subscriptions.listKeys();
  const chunks: string[][] = [];
  for (let i = 0; i < keys.length; i += CHUNK_SIZE) chunks.push(keys.slice(i, i + CHUNK_SIZE));

  let queuedChunks = 0;
  let inline = chunks;
  if (options.queue && chunks.length > 1) {
    const rest = chunks.slice(1);
    queuedChunks = await enqueue(options.queue, rest, now);
    inline = [chunks[0] as string[], ...fallbackChunks(rest.slice(queuedChunks), now)];
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
  try {
    const digests = await runDueDigests(deps, now, owner);
    report.digestsSent = digests.sent;
    report.writes += digests.writes;
  } catch (error) {
    // Unreadable digest schedules must not cost the heartbeat; the next cycle tries again.
    report.errors++;
    console.error(`digests failed: ${error instanceof Error ? error.name : "unknown"}`);
  }
  await recordHeartbeat(
    { at: now.toISOString(), subscriptions: keys.length, failed: report.errors },
    deps.kv,
  ).catch(() => {});
  return report;
}
