import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Bot, createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { health, objectState } from "../helpers/cases.ts";

// Subscribing asks Slack first whether the bot can post in the channel: a channel it cannot
// post in is refused with the fix and nothing is stored; when Slack cannot say, the
// subscription is accepted with a warning.

async function freshBot() {
  const apiKey = await newOrg();
  return { bot: createBot({ apiKey }), ctl: emulator.org(apiKey) };
}

async function lastReply(bot: Bot, channelId: string): Promise<string> {
  const replies = (await bot.messages(channelId)).filter((m) => m.ephemeral);
  return visibleText(replies.at(-1) ?? {});
}

async function nothingStored(bot: Bot, channelId: string, kind: "test" | "collection", id: number) {
  expect(await new SubscriptionStore(env.STATE).get(channelId, kind, id)).toBeNull();
  expect(await objectState(bot, kind, id, channelId)).toBeNull();
  expect((await health(bot)).subscriptions).toBe(0);
}

describe("subscribe checks the channel first", () => {
  it("a public channel the bot is not in: it joins it (channels:join) and subscribes", async () => {
    const { bot } = await freshBot();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0NOTIN" });
    expect(await lastReply(bot, "C0NOTIN")).not.toMatch(/invite/);
    expect((await bot.slackCalls()).some((c) => c.method === "conversations.join")).toBe(true);
    expect(await objectState(bot, "test", 101, "C0NOTIN")).not.toBeNull();
  });

  it("a channel the bot cannot join is refused with `/invite @Decipher`; nothing stored, Decipher not asked", async () => {
    const { bot, ctl } = await freshBot();
    await bot.slackFault("conversations.join", "error", 1, {
      error: "method_not_supported_for_channel_type",
    });
    await bot.command("/decipher", "subscribe collection 501 growth:3", { channelId: "C0NOTIN" });
    const reply = await lastReply(bot, "C0NOTIN");
    expect(reply).toMatch(/\/invite @Decipher/);
    expect(reply).toMatch(/Nothing was stored/);
    await nothingStored(bot, "C0NOTIN", "collection", 501);
    expect((await ctl.requests()).total).toBe(0);
    // And a cron finds nothing to poll or post.
    await bot.cron();
    expect((await bot.slackCalls()).filter((c) => c.method === "chat.postMessage")).toEqual([]);
  });

  it("an archived channel is refused; nothing stored", async () => {
    const { bot, ctl } = await freshBot();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ARCHIVED" });
    const reply = await lastReply(bot, "C0ARCHIVED");
    expect(reply).toMatch(/archived/);
    expect(reply).toMatch(/Nothing was stored/);
    await nothingStored(bot, "C0ARCHIVED", "test", 101);
    expect((await ctl.requests()).total).toBe(0);
  });

  it("a channel Slack says it cannot find (a private one the bot was not invited to) is refused", async () => {
    const { bot } = await freshBot();
    await bot.slackFault("conversations.info", "error", 1, { error: "channel_not_found" });
    await bot.command("/decipher", "subscribe test 101");
    expect(await lastReply(bot, "C0ALERTS")).toMatch(/\/invite @Decipher/);
    await nothingStored(bot, "C0ALERTS", "test", 101);
  });

  it.each([
    ["a 5xx (twice, so the retry fails too)", "500", 2, {}],
    ["a rate limit with a long Retry-After", "429", 1, { retryAfter: 60 }],
    ["missing_scope (no channels:read)", "error", 1, { error: "missing_scope" }],
    ["internal_error", "error", 1, { error: "internal_error" }],
  ] as const)(
    "when conversations.info fails with %s: accepted, with a warning",
    async (_label, kind, count, extra) => {
      const { bot, ctl } = await freshBot();
      await bot.slackFault("conversations.info", kind, count, extra);
      await bot.command("/decipher", "subscribe test 101");
      const reply = await lastReply(bot, "C0ALERTS");
      expect(reply).toMatch(/Subscribed this channel/);
      expect(reply).toMatch(/could not check that it can post here/);
      expect(await objectState(bot, "test", 101)).not.toBeNull();
      expect((await health(bot)).subscriptions).toBe(1);
      // And it alerts.
      const failed = await ctl.addRun(101, "failed");
      await bot.cron();
      const posted = await bot.posted();
      expect(posted).toHaveLength(1);
      expect(visibleText(posted[0] ?? {})).toContain(`runs/${failed.id}`);
    },
  );

  it("a channel the bot can post in: accepted without a warning", async () => {
    const { bot } = await freshBot();
    await bot.command("/decipher", "subscribe test 101");
    const reply = await lastReply(bot, "C0ALERTS");
    expect(reply).toMatch(/Subscribed this channel/);
    expect(reply).not.toMatch(/could not check/);
  });
});
