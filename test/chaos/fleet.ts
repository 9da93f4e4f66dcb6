import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import type { PollChunk } from "../../src/alerts/poll-cycle.ts";
import worker from "../../src/index.ts";
import { keys } from "../../src/state/keys.ts";
import type { TestSubscription } from "../../src/state/subscription-types.ts";
import { mapLimit } from "../../src/util/map-limit.ts";
import { type Bot, emulatorUrl } from "../helpers/bot.ts";
import { emulatorOrg } from "../helpers/emulator.ts";

/**
 * Helpers for the cost benchmark and the chaos suite: many subscriptions at once, a queue
 * that records what the cron fans out, and the queue consumer driven as Cloudflare would.
 */

/** Channels every stand-in workspace has where the bot may post. */
export const POSTABLE_CHANNELS = ["C0ALERTS", "C0GENERAL", "C0DEMO"] as const;

/** A `Queue` binding that keeps what was sent, so a test can deliver it to the consumer. */
export function recordingQueue() {
  const sent: PollChunk[] = [];
  let sendCalls = 0;
  const queue = {
    async send(body: PollChunk) {
      sendCalls++;
      sent.push(body);
    },
    async sendBatch(messages: Iterable<{ body: PollChunk }>) {
      sendCalls++;
      for (const m of messages) sent.push(m.body);
    },
  } as unknown as Queue<PollChunk>;
  return {
    queue,
    /** Messages sent and not yet delivered. */
    take(): PollChunk[] {
      return sent.splice(0, sent.length);
    },
    get sendCalls() {
      return sendCalls;
    },
  };
}

/** Delivers chunks to the Worker's queue consumer in batches of `batchSize` (wrangler.toml: 5). */
export async function deliver(
  bot: Bot,
  chunks: PollChunk[],
  batchSize: number,
  onBatch?: () => Promise<void>,
) {
  for (let i = 0; i < chunks.length; i += batchSize) {
    const messages = chunks.slice(i, i + batchSize).map((body, j) => ({
      id: `msg-${i + j}-${crypto.randomUUID()}`,
      timestamp: new Date(),
      attempts: 1,
      body,
    }));
    const batch = createMessageBatch<PollChunk>("decipher-slack-poll", messages);
    const ctx = createExecutionContext();
    await (worker.queue as (...args: unknown[]) => Promise<void>)(batch, bot.env, ctx);
    await getQueueResult(batch, ctx);
    await onBatch?.();
  }
}

/** Creates `count` tests in the org, each with one passed run (so polls have a time anchor). */
export async function createTests(apiKey: string, count: number): Promise<number[]> {
  const org = emulatorOrg(apiKey);
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const test = await org.addTest(`bench test ${i}`);
      await org.addRun(test.id, "passed");
      return test.id;
    },
  );
}

/** Stores test subscriptions exactly as `/decipher subscribe test` would after its baseline. */
export async function seedTestSubscriptions(
  kv: KVNamespace,
  apiKey: string,
  testIds: number[],
  now = new Date(),
): Promise<string[]> {
  const subs = await mapLimit(
    testIds.map((testId, i) => ({ testId, i })),
    8,
    async ({ testId, i }) => {
      const res = await fetch(`${emulatorUrl}/api/v1/tests/${testId}/runs?limit=50&status=all`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const page = (await res.json()) as {
        test: { name: string };
        data: Array<{ id: number; createdAt: string; status: string }>;
      };
      const latest = page.data.reduce<(typeof page.data)[number] | undefined>(
        (max, run) => (!max || run.id > max.id ? run : max),
        undefined,
      );
      const at = now.toISOString();
      const sub: TestSubscription = {
        kind: "test",
        channelId: POSTABLE_CHANNELS[i % POSTABLE_CHANNELS.length] as string,
        testId,
        testName: page.test.name,
        createdAt: at,
        createdBy: "U0ALICE",
        paused: null,
        lastError: null,
        lastChangeAt: at,
        lastRunId: latest?.id ?? 0,
        lastRunAt: latest?.createdAt ?? null,
        handledRunIds: [],
        streak: null,
      };
      return sub;
    },
  );
  const subKeys = subs.map((s) => keys.subscription(s.channelId, "test", s.testId));
  await mapLimit(subs, 16, (s) =>
    kv.put(keys.subscription(s.channelId, "test", s.testId), JSON.stringify(s)),
  );
  await kv.put(keys.subscriptionIndex(), JSON.stringify([...subKeys].sort()));
  return subKeys;
}

export async function resetVendorCounts(apiKey: string) {
  await fetch(`${emulatorUrl}/__emulator/requests?apiKey=${encodeURIComponent(apiKey)}`, {
    method: "DELETE",
  });
}

/** A small deterministic PRNG (mulberry32): same seed, same rounds. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}
