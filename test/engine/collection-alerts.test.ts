import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { growthThreshold } from "../../src/engine/collections.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";

async function watching(collectionId: number, options = "") {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", `subscribe collection ${collectionId} ${options}`.trim());
  const saved = await new SubscriptionStore(env.STATE).get("C0ALERTS", "collection", collectionId);
  const baseline = saved?.kind === "collection" ? saved.alertedCount : Number.NaN;
  return { bot, org: emulator.org(apiKey), baseline };
}

describe("growth threshold", () => {
  it("is +5 sessions or +50 %, whichever is smaller, and at least one", () => {
    expect(growthThreshold(100, null)).toBe(5);
    expect(growthThreshold(6, null)).toBe(3);
    expect(growthThreshold(1, null)).toBe(1);
    expect(growthThreshold(0, null)).toBe(1);
    expect(growthThreshold(100, 20)).toBe(20);
  });
});

describe("issue-collection alerts", () => {
  it("stays quiet below the threshold and alerts once past it, with old → new counts and evidence", async () => {
    const { bot, org, baseline } = await watching(501);
    const threshold = growthThreshold(baseline, null);
    if (threshold > 1) {
      await org.grow(501, threshold - 1);
      await bot.cron();
      expect(await bot.posted()).toEqual([]);
    }
    await org.grow(501, 1);
    await bot.cron();
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    const text = visibleText(posts[0] as StoredMessage);
    expect(text).toContain(`${baseline} → ${baseline + threshold}`);
    expect(text).toMatch(/sessions\/[0-9a-f-]{36}/);
  });

  it("replies in the thread on later growth and keeps the parent's numbers current", async () => {
    const { bot, org } = await watching(501, "growth:2");
    await org.grow(501, 2);
    await bot.cron();
    await org.grow(501, 3);
    await bot.cron();
    const posts = await bot.posted();
    const parent = posts.find((m) => !m.thread_ts || m.thread_ts === m.ts) as StoredMessage;
    const replies = posts.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(replies).toHaveLength(1);
    expect(parent.edited).toBe(true);
  });

  it("announces new sessions on a resolved collection as a regression, once", async () => {
    const { bot, org } = await watching(502);
    await org.grow(502, 1);
    await bot.cron();
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/regress/i);
  });

  it("treats a collection resolved after subscribing as a fresh start", async () => {
    const { bot, org } = await watching(501, "growth:3");
    await org.resolve(501, true);
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
    await org.grow(501, 1);
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/regress/i);
  });
});
