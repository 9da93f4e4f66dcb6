import { describe, expect, it } from "vitest";
import { pollChunk } from "../../src/alerts/poll-cycle.ts";
import { createDeps } from "../../src/deps.ts";
import { readConfig } from "../../src/env.ts";
import { keys } from "../../src/state/keys.ts";
import { type Bot, createBot, newOrg } from "../helpers/bot.ts";
import { emulatorOrg } from "../helpers/emulator.ts";

/**
 * Two cycles over the same subscription at once (two crons, or a late queue chunk next to the
 * next cycle's). The lease is meant to make one of them stand back. The interleaving is forced
 * so the result does not depend on timing: cycle B reads the subscription, then cycle A runs
 * from start to end (lease, post, state, release), then B goes on to take the lease.
 *
 * Found by the chaos suite and fixed: `pollChunk` now re-reads the subscription after taking
 * the lease and drops its own view (no post, no write) when a rival changed it meanwhile.
 */

/** B's KV: tells when B has read the subscription, and holds B's lease read until A is done. */
function gatedKv(kv: KVNamespace, subKey: string) {
  let readSub!: () => void;
  let releaseLease!: () => void;
  const subRead = new Promise<void>((r) => {
    readSub = r;
  });
  const aDone = new Promise<void>((r) => {
    releaseLease = r;
  });
  const gated = {
    async get(key: string, type?: unknown) {
      if (key === keys.lease(subKey)) await aDone;
      const value = await kv.get(key, type as never);
      if (key === subKey) readSub();
      return value;
    },
    getWithMetadata: kv.getWithMetadata.bind(kv),
    put: kv.put.bind(kv),
    delete: kv.delete.bind(kv),
    list: kv.list.bind(kv),
  } as unknown as KVNamespace;
  return { kv: gated, subRead, releaseLease };
}

async function forcedOverlap(bot: Bot, subKey: string) {
  const config = readConfig(bot.env as never);
  const gate = gatedKv(bot.env.STATE, subKey);
  const now = new Date();
  const b = pollChunk(createDeps(config, gate.kv), [subKey], now, "cycle-b");
  await gate.subRead;
  await pollChunk(createDeps(config, bot.env.STATE), [subKey], now, "cycle-a");
  gate.releaseLease();
  await b;
}

const okPosts = async (bot: Bot) =>
  (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage" && c.ok);

describe("overlapping cycles (forced interleaving)", () => {
  it("announce one collection growth once", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe collection 501 growth:1", { channelId: "C0ALERTS" });
    await emulatorOrg(apiKey).grow(501, 2);
    await forcedOverlap(bot, keys.subscription("C0ALERTS", "collection", 501));
    expect(await okPosts(bot)).toHaveLength(1);
  });

  it("announce one failed run once", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await emulatorOrg(apiKey).addRun(101, "failed");
    await forcedOverlap(bot, keys.subscription("C0ALERTS", "test", 101));
    expect(await okPosts(bot)).toHaveLength(1);
  });

  it("two plain overlapping crons never lose an alert", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    const run = await emulatorOrg(apiKey).addRun(101, "failed");
    await Promise.all([bot.cron(), bot.cron()]);
    await bot.cron();
    const posts = await okPosts(bot);
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(posts[0]?.params)).toContain(`/runs/${run.id}`);
  });
});
