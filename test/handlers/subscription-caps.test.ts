import { describe, expect, it } from "vitest";
import { createBot, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { CHANNEL_ID, slackApp, TEAM_ID } from "../helpers/slack-app.ts";

// Issue #36, limits that protect the service: a channel or a workspace cannot grow its
// subscriptions without end (each is an object polling Decipher every minute).

const replyTo = async (bot: ReturnType<typeof createBot>, text: string, channelId = "C0ALERTS") => {
  await bot.command("/decipher", text, { channelId });
  return visibleText((await bot.messages(channelId)).at(-1) ?? {});
};

describe("subscription caps", () => {
  it("refuse a channel's subscription past SUBSCRIPTIONS_PER_CHANNEL, keep the ones it has, and let a watched item be subscribed again", async () => {
    const bot = createBot({ apiKey: await newOrg(), env: { SUBSCRIPTIONS_PER_CHANNEL: "2" } });
    expect(await replyTo(bot, "subscribe test 101")).toMatch(/Subscribed/);
    expect(await replyTo(bot, "subscribe test 102")).toMatch(/Subscribed/);
    expect(await replyTo(bot, "subscribe test 103")).toMatch(
      /This channel already watches 2 items, the most one channel may/,
    );
    expect(await replyTo(bot, "subscribe test 101 after:2")).not.toMatch(/the most/);
    expect(await replyTo(bot, "subscribe test 103", "C0DEMO")).toMatch(/Subscribed/);
  });

  it("refuse a workspace's subscription past SUBSCRIPTIONS_PER_TEAM", async () => {
    const bot = createBot({ apiKey: await newOrg(), env: { SUBSCRIPTIONS_PER_TEAM: "2" } });
    await replyTo(bot, "subscribe test 101");
    await replyTo(bot, "subscribe test 102", "C0DEMO");
    expect(await replyTo(bot, "subscribe test 103", "C0GENERAL")).toMatch(
      /This workspace already watches 2 items, the most it may/,
    );
  });
});

describe("a subscribe while the channel's index cannot be read", () => {
  it("subscribes, as an unknown count always left room, and reads what is there from the subscription's object", async () => {
    const app = await slackApp();
    const control = app.alertControl;
    control.channelIndex = () => Promise.reject(new Error("channel object unreachable"));
    await app.command("/decipher", "subscribe test 101");
    expect(visibleText((await app.messages()).at(-1) ?? {})).toMatch(/Subscribed this channel to test/);
    expect(
      await control.subscription({ teamId: TEAM_ID, channelId: CHANNEL_ID, kind: "test", id: 101 }),
    ).toMatchObject({
      testId: 101,
    });
    await app.command("/decipher", "subscribe test 101");
    expect(visibleText((await app.messages()).at(-1) ?? {})).toMatch(/already watches/);
  });
});
