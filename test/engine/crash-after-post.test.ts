import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { leaveIntent, ledgerOf, objectState, runIdsIn, storedBySlack } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Slack did the post but the bot never learnt it (the answer was lost), or the bot died between
// recording the intent and learning the outcome. The outbox (src/engine/outbox.ts) decides: an
// unknown outcome is looked up by its key in the channel's history, never posted blindly.

type Bot = Awaited<ReturnType<typeof subscribedBot>>["bot"];
const MINUTE = 60_000;

const topLevel = async (bot: Bot) => (await bot.posted()).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

const postCalls = async (bot: Bot) => await bot.alertPosts();

describe("Slack stores the post but the answer is lost (5xx)", () => {
  it("one lost answer: the alert is in the channel once, found by its key, and its fate has the ts", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(posted.map((m) => runIdsIn(visibleText(m)).includes(failed.id))).toEqual([true]);
    // No second chat.postMessage: not in place on the 5xx, not on a later cycle.
    expect((await postCalls(bot)).map((c) => c.status)).toEqual([500]);
    expect((await bot.slackCalls()).some((c) => c.method === "conversations.history")).toBe(true);
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id);
    expect(row).toMatchObject({ fate: "announced", ts: posted[0]?.ts });
  });

  it("lost answers on a failure and on its thread reply: each message once, the reply in the right thread", async () => {
    const { bot, org } = await subscribedBot();
    const first = await org.addRun(101, "failed");
    const t0 = Date.now();
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    const second = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const top = await topLevel(bot);
    expect(top).toHaveLength(1);
    const replies = (await bot.posted()).filter((m) => m.thread_ts === top[0]?.ts && m.ts !== top[0]?.ts);
    expect(replies.filter((m) => runIdsIn(visibleText(m)).includes(second.id))).toHaveLength(1);
    const ledger = await ledgerOf(bot, "test", 101);
    expect(ledger.find((r) => r.id === first.id)?.fate).toBe("announced");
    expect(ledger.find((r) => r.id === second.id)).toMatchObject({ fate: "threaded", parentTs: top[0]?.ts });
  });
});

describe("a crash between the intent and the outcome", () => {
  it("Slack has the post (the crash came after it): found by its key, never posted again", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    const t0 = Date.now();
    await leaveIntent(bot, "test", 101, `run:${failed.id}`, new Date(t0 - MINUTE));
    const ts = await storedBySlack(bot, `run:${failed.id}`, `Run #${failed.id} failed`);
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    expect(await postCalls(bot)).toHaveLength(1); // the one storedBySlack made
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id)).toMatchObject({
      fate: "announced",
      ts,
    });
  });

  it("Slack does not have it (the crash came before the post): sent once", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    const t0 = Date.now();
    await leaveIntent(bot, "test", 101, `run:${failed.id}`, new Date(t0 - MINUTE));
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(failed.id);
  });

  it("a lookup Slack rate-limits sends nothing; the next poll settles it", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    const t0 = Date.now();
    await leaveIntent(bot, "test", 101, `run:${failed.id}`, new Date(t0 - MINUTE));
    await storedBySlack(bot, `run:${failed.id}`, `Run #${failed.id} failed`);
    await bot.slackFault("conversations.history", "429", 1);
    await bot.cron(new Date(t0));
    expect(await postCalls(bot)).toHaveLength(1);
    await bot.cron(new Date(t0 + MINUTE));
    expect(await postCalls(bot)).toHaveLength(1);
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id)?.fate).toBe("announced");
  });

  it("a collection's growth whose answer was lost is one alert, and growth past it still alerts", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const grown = await org.grow(501, 10);
    const t0 = Date.now();
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await topLevel(bot)).toHaveLength(1);
    expect(await bot.posted()).toHaveLength(1);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    expect(state?.alertedCount).toBe(grown.collection.sessionCount);
    await org.grow(501, 20);
    await bot.cron(new Date(t0 + 3 * MINUTE));
    expect(await topLevel(bot)).toHaveLength(1);
    expect((await bot.posted()).length).toBeGreaterThan(1);
  });

  // The lookup that finds the post is a later poll, which reads a count grown since: the count
  // recorded as told must be the one the found message shows.
  it("an alert whose answer was lost, found after more growth, shows the count recorded as told", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const t0 = Date.now();
    await org.grow(501, 3);
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    const now = (await org.grow(501, 1)).collection.sessionCount;
    await bot.cron(new Date(t0 + MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    expect(state?.told).toMatchObject({ count: now, ts: posted[0]?.ts });
    expect(visibleText(posted[0] ?? {})).toContain(`→ ${now}`);
  });

  it("a growth reply whose answer was lost, found after more growth, shows the count recorded as told", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const t0 = Date.now();
    await org.grow(501, 3);
    await bot.cron(new Date(t0));
    await org.grow(501, 3);
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + MINUTE));
    const now = (await org.grow(501, 1)).collection.sessionCount;
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(2);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    expect(state?.told).toMatchObject({ count: now, ts: posted[1]?.ts });
    expect(visibleText(posted[1] ?? {})).toContain(`→ ${now}`);
    expect(visibleText(posted[0] ?? {})).toContain(`→ ${now}`);
  });

  it("a found alert whose edit Slack refuses for now records nothing until the edit is made", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const t0 = Date.now();
    const was = (await org.grow(501, 3)).collection.sessionCount;
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    const now = (await org.grow(501, 1)).collection.sessionCount;
    await bot.slackFault("chat.update", "429", 1, { retryAfter: 120 });
    await bot.cron(new Date(t0 + MINUTE));
    expect(visibleText((await bot.posted())[0] ?? {})).toContain(`→ ${was}`);
    expect((await objectState<CollectionSubscription>(bot, "collection", 501))?.told ?? null).toBeNull();
    await bot.cron(new Date(t0 + 4 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toContain(`→ ${now}`);
    expect((await objectState<CollectionSubscription>(bot, "collection", 501))?.told?.count).toBe(now);
  });
});
