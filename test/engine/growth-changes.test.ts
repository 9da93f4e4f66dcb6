import { describe, expect, it } from "vitest";
import type { Bot } from "../../dev/in-workerd/bot.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { cronWith, objectState, until } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// `/decipher subscribe collection 501 growth:N` while that collection's alert is being posted
// (Slack slow to answer) changes the rule for next time; it never announces the same growth
// twice, and the growth being posted is not lost.

const MINUTE = 60_000;
const postsTried = async (bot: Bot) => (await bot.alertPosts()).length;

async function changeGrowthDuringPost(bot: Bot, growth: number, cron: Promise<void>) {
  await until(async () => (await postsTried(bot)) === 1, 5_000, "the collection alert's post");
  await Promise.all([cron, bot.command("/decipher", `subscribe collection 501 growth:${growth}`)]);
}

describe("changing growth: while a collection alert posts", () => {
  it("a slow post (answered in time): one alert, the new rule kept, later growth threads", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const grown = await org.grow(501, 10);
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_500 });
    const t0 = Date.now();
    await changeGrowthDuringPost(bot, 3, bot.cron(new Date(t0)));

    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    expect(state?.growth).toBe(3);
    expect(state?.alertedCount).toBe(grown.collection.sessionCount);
    expect(state?.threadTs).toBe((await bot.posted())[0]?.ts);

    // Two more sessions: below the new threshold of 3. A third: a reply in the thread.
    await org.grow(501, 2);
    await bot.cron(new Date(t0 + 3 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    await org.grow(501, 1);
    await bot.cron(new Date(t0 + 4 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(2);
    expect(posted[1]?.thread_ts).toBe(posted[0]?.ts);
  }, 30_000);

  it("a post that outlives the Slack timeout: found by its key, its growth counts as announced, never posted again", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const grown = await org.grow(501, 10);
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 3_000 });
    const timeout = { SLACK_TIMEOUT_MS: "1000" };
    const t0 = Date.now();
    await changeGrowthDuringPost(bot, 1, cronWith(bot, timeout, new Date(t0)));
    for (let i = 1; i < 4; i++) await cronWith(bot, timeout, new Date(t0 + i * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    expect(await postsTried(bot)).toBe(1);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    expect(state?.growth).toBe(1);
    expect(state?.alertedCount).toBe(grown.collection.sessionCount);
    // Found by its key in the channel's history, not posted again.
    expect((await bot.slackCalls()).some((c) => c.method === "conversations.history")).toBe(true);
    // One more session with growth:1 alerts once (a new message: the first one's ts is unknown).
    await org.grow(501, 1);
    await cronWith(bot, timeout, new Date(t0 + 5 * MINUTE));
    await cronWith(bot, timeout, new Date(t0 + 6 * MINUTE));
    expect(await bot.posted()).toHaveLength(2);
  }, 30_000);

  it("raising the threshold mid-post does not hold back the growth being announced", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    await org.grow(501, 6);
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_500 });
    const t0 = Date.now();
    await changeGrowthDuringPost(bot, 50, bot.cron(new Date(t0)));
    await bot.cron(new Date(t0 + MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    await org.grow(501, 10);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
  }, 30_000);
});
