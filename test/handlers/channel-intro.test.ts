import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";

/**
 * Issue #36 (Marketplace readiness): the first subscription in a channel posts one short
 * message saying who set it up and how to change or stop it; the channel's object keeps that
 * it did, so no later subscription, nor unsubscribing everything and subscribing again,
 * posts another.
 */
const intros = async (bot: ReturnType<typeof createBot>, channelId = "C0ALERTS") =>
  (await bot.messages(channelId)).filter(
    (m) => m.bot_id && !m.ephemeral && /set up Decipher alerts/.test(visibleText(m)),
  );

describe("a channel's first subscription", () => {
  it("posts one message: who set it up, what it watches, and how to see, change or stop it", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101");
    const [intro, ...more] = await intros(bot);
    expect(more).toEqual([]);
    const text = visibleText(intro ?? {});
    expect(text).toContain("<@U0ALICE> set up Decipher alerts in this channel, starting with test");
    expect(text).toContain("101");
    expect(text).toContain("`/decipher list`");
    expect(text).toContain("`/decipher unsubscribe test 101`");
    // Nothing in it reads differently an hour or a day later.
    expect(text).not.toMatch(/<!date|ago|today|now\b/);
  });

  it("is the channel's only introduction, ever: other subscriptions, and subscribing again after leaving, post none", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101");
    await bot.command("/decipher", "subscribe test 102", { userId: "U0BOB" });
    await bot.command("/decipher", "subscribe collection 501");
    await bot.command("/decipher", "unsubscribe test 101");
    await bot.command("/decipher", "unsubscribe test 102");
    await bot.command("/decipher", "unsubscribe collection 501");
    await bot.command("/decipher", "subscribe test 103", { userId: "U0BOB" });
    expect(await intros(bot)).toHaveLength(1);
    // Another channel has its own.
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0DEMO", userId: "U0BOB" });
    const [demo] = await intros(bot, "C0DEMO");
    expect(visibleText(demo ?? {})).toContain("<@U0BOB> set up Decipher alerts");
    // Alerts go on as before, apart from it.
    await emulator.org(apiKey).addRun(103, "failed");
    await bot.cron();
    const alerts = (await bot.posted()).filter((m) => !/set up Decipher alerts/.test(visibleText(m)));
    expect(alerts).toHaveLength(1);
  });

  it("when Slack says not now, the channel's next new subscription introduces it", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 120 });
    await bot.command("/decipher", "subscribe test 101");
    expect(await intros(bot)).toEqual([]);
    await bot.command("/decipher", "subscribe test 102");
    expect(await intros(bot)).toHaveLength(1);
  });
});
