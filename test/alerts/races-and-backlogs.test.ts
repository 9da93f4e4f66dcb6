import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pollChunk, runPollCycle } from "../../src/alerts/poll-cycle.ts";
import { createDeps } from "../../src/deps.ts";
import { readConfig } from "../../src/env.ts";
import { DigestStore } from "../../src/state/digests.ts";
import { keys } from "../../src/state/keys.ts";
import { SubscriptionStore } from "../../src/state/subscriptions.ts";
import { createBot, newOrg, visibleText } from "../helpers/bot.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Found by an independent review: each test here failed before its fix.

const CHANNEL = "C0ALERTS";
const store = () => new SubscriptionStore(env.STATE);

/** Holds every `get` of one key until released, to interleave a cycle with something else. */
function gatedKv(kv: KVNamespace, gatedKey: string) {
  let release!: () => void;
  let reached!: () => void;
  const open = new Promise<void>((r) => (release = r));
  const hit = new Promise<void>((r) => (reached = r));
  const gated = {
    async get(key: string, type?: unknown) {
      if (key === gatedKey) {
        reached();
        await open;
      }
      return kv.get(key, type as never);
    },
    getWithMetadata: kv.getWithMetadata.bind(kv),
    put: kv.put.bind(kv),
    delete: kv.delete.bind(kv),
    list: kv.list.bind(kv),
  } as unknown as KVNamespace;
  return { gated, hit, release };
}

const digestsIn = async (bot: ReturnType<typeof createBot>) =>
  (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));

describe("backlogs", () => {
  it("announces a failure buried under more runs than one poll reads", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    for (let i = 0; i < 200; i++) await org.addRun(101, "passed");
    await bot.cron();
    const text = (await bot.posted()).map(visibleText).join("\n");
    expect(text).toContain(`runs/${failed.id}`);
  }, 60_000);

  it("does not call a test recovered when an older run passes late", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    await org.addRun(101, "failed");
    await bot.cron();
    await org.setRun(slow.id, "passed");
    await bot.cron();
    const text = (await bot.posted()).map(visibleText).join("\n");
    expect(text).not.toMatch(/passed again/i);
  });

  it("stores nothing for runs that only pass, until a while has gone by", async () => {
    const { bot, org } = await subscribedBot();
    // The first pass after hours of quiet moves the stored watermark (the demo data is old).
    await org.addRun(101, "passed");
    await bot.cron();
    const writes = bot.kv.writes;
    for (let i = 0; i < 3; i++) {
      await org.addRun(101, "passed");
      await bot.cron();
    }
    expect(bot.kv.writes - writes).toBe(0);
  });
});

describe("races", () => {
  it("an unsubscribe during a cycle stays an unsubscribe, and subscribing again works", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    const key = keys.subscription(CHANNEL, "test", 101);
    const { gated, hit, release } = gatedKv(bot.env.STATE, keys.lease(key));
    const cycle = pollChunk(createDeps(readConfig(bot.env), gated), [key], new Date(), "slow-cycle");
    await hit;
    await bot.command("/decipher", "unsubscribe test 101");
    release();
    await cycle;
    expect(await store().get(CHANNEL, "test", 101)).toBeNull();
    expect(await bot.posted()).toEqual([]);

    await bot.command("/decipher", "subscribe test 101");
    expect(await store().listKeys()).toContain(key);
    await org.addRun(101, "failed");
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
  });

  it("concurrent subscribes in several channels all end up in the index", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const commands: [string, string][] = [
      ["C0ALERTS", "subscribe test 101"],
      ["C0ALERTS", "subscribe test 102"],
      ["C0ALERTS", "subscribe test 103"],
      ["C0GENERAL", "subscribe test 101"],
      ["C0DEMO", "subscribe test 101"],
      ["C0DEMO", "subscribe collection 501"],
    ];
    await Promise.all(commands.map(([channelId, text]) => bot.command("/decipher", text, { channelId })));
    expect(await store().listKeys()).toHaveLength(commands.length);
  });

  it("the hourly reconcile restores an index entry lost anyway", async () => {
    const { bot } = await subscribedBot();
    await env.STATE.put(keys.subscriptionIndex(), "[]");
    await bot.cron(new Date("2026-11-22T10:00:00Z"));
    expect(await store().listKeys()).toEqual([keys.subscription(CHANNEL, "test", 101)]);
  });

  it("two overlapping cycles send a due digest once", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "digest 09:00 UTC");
    const due = new Date(
      ((await new DigestStore(env.STATE).get(CHANNEL)) as { nextDueAt: string }).nextDueAt,
    );
    const at = new Date(due.getTime() + 5_000);
    await Promise.all([bot.cron(at), bot.cron(at)]);
    expect(await digestsIn(bot)).toHaveLength(1);
  });
});

describe("partial failures", () => {
  it("sends the digest even when one subscription's test is gone at Decipher", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "subscribe collection 501");
    await bot.command("/decipher", "digest 09:00 UTC");
    const gone = (await store().get(CHANNEL, "test", 101)) as Parameters<SubscriptionStore["save"]>[0];
    await store().save({ ...gone, testId: 987654 } as typeof gone);
    const due = new Date(
      ((await new DigestStore(env.STATE).get(CHANNEL)) as { nextDueAt: string }).nextDueAt,
    );
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(await digestsIn(bot)).toHaveLength(1);
  });

  it("still polls its own chunk and sends digests when the queue refuses", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    const extra = Array.from({ length: 10 }, (_, i) => `sub:C0ZZ:test:${900 + i}`);
    await env.STATE.put(
      keys.subscriptionIndex(),
      JSON.stringify([...(await store().listKeys()), ...extra].sort()),
    );
    const refusing = {
      send: async () => {},
      sendBatch: async () => {
        throw new Error("Queue quota exceeded");
      },
    } as unknown as Queue;
    const report = await runPollCycle(createDeps(readConfig(bot.env), bot.env.STATE), {
      now: new Date(),
      queue: refusing as never,
    });
    expect(report.queuedChunks).toBe(0);
    expect(await bot.posted()).toHaveLength(1);
  });

  it("queues more than 100 chunks in batches of at most 100", async () => {
    const { bot } = await subscribedBot();
    const extra = Array.from({ length: 1010 }, (_, i) => `sub:C0ZZ:test:${10_000 + i}`);
    await env.STATE.put(
      keys.subscriptionIndex(),
      JSON.stringify([...(await store().listKeys()), ...extra].sort()),
    );
    const batches: number[] = [];
    const queue = {
      send: async () => {},
      sendBatch: async (messages: unknown[]) => {
        if (messages.length > 100) throw new Error("batch too large");
        batches.push(messages.length);
      },
    } as unknown as Queue;
    const report = await runPollCycle(createDeps(readConfig(bot.env), bot.env.STATE), {
      now: new Date(),
      queue: queue as never,
    });
    expect(report.queuedChunks).toBe(101);
    expect(batches).toEqual([100, 1]);
  });

  it("backs off while Slack keeps failing: after a few minutes, a try every fifth cycle", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1000, { error: "internal_error" });
    const start = Date.now();
    const minute = (n: number) => new Date(start + n * 60_000);
    await bot.cron(minute(0));
    const tries = async () => (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage").length;
    const before = await tries();
    for (let n = 4; n <= 10; n++) await bot.cron(minute(n));
    // Minutes 4–10 of the outage: only 5 and 10 try again.
    expect((await tries()) - before).toBe(2);
  });
});
