import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../../dev/in-workerd/bot.ts";
import { CHANNELS_UNCHECKED } from "../../../src/messages/decipher-replies.ts";
import { GUEST_REFUSAL, OUTSIDER_REFUSAL } from "../../../src/messages/outsiders.ts";
import { envelope, eventsOf, fromAnotherOrg } from "../../helpers/events.ts";

/**
 * Questions sent to the app in a DM (#39): `message.im`, answered in the DM from the channels
 * the person is in that the bot watches, as their App Home shows them: #alerts (Alice and Bob)
 * watches Checkout flow (101), #incidents (private: Alice only) watches Search & filters (103).
 */
async function workspace() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const events = eventsOf(bot);
  await bot.command("/decipher", "subscribe test 101");
  await bot.command("/decipher", "subscribe test 103", { channelId: "C0PRIVATE" });
  const org = emulator.org(apiKey);
  const dmOf = (userId: string) => `D${userId.slice(1)}`;
  /** `userId` asks in their DM with the app; the bot's answers there since. */
  async function dm(question: string, userId = "U0ALICE") {
    const before = (await bot.messages(dmOf(userId))).length;
    await events.say(dmOf(userId), question, { userId });
    return (await bot.messages(dmOf(userId))).slice(before).filter((m) => m.bot_id);
  }
  return { bot, org, events, dm, team: await bot.team() };
}

describe("a question in a DM with the app", () => {
  it("is answered there, from the channels the person is in: Alice's #alerts and #incidents, Bob's #alerts only", async () => {
    const { bot, org, dm } = await workspace();
    await org.addRun(101, "failed");
    await org.addRun(103, "failed");
    await bot.cron();
    const [alice, ...more] = await dm("what failed today?");
    expect(more).toEqual([]);
    expect(visibleText(alice ?? {})).toContain("Checkout flow");
    expect(visibleText(alice ?? {})).toContain("Search &amp; filters");
    expect(alice?.thread_ts ?? null).toBeNull();
    const [bob] = await dm("what failed today?", "U0BOB");
    expect(visibleText(bob ?? {})).toContain("Checkout flow");
    expect(visibleText(bob ?? {})).not.toContain("Search");
    expect(visibleText((await dm("is search flaky?", "U0BOB"))[0] ?? {})).not.toContain(
      "Search &amp; filters*",
    );
  });

  it("says 'your channels', not 'this channel', about what it does not watch", async () => {
    const { dm } = await workspace();
    const [answer] = await dm("is test 999 flaky");
    expect(visibleText(answer ?? {})).toContain("None of your channels watches test 999.");
  });

  it("answers nothing to the bot's own posts, edits, or anything but a person's new words", async () => {
    const { bot, events, team } = await workspace();
    const base = { type: "message", channel: "D0ALICE", channel_type: "im", ts: "1732200000.000200" };
    for (const event of [
      { ...base, bot_id: "B0DECIPHER", user: "U0DECIPHER", text: "what failed today?" },
      { ...base, subtype: "message_changed", message: { text: "what failed today?" } },
      { ...base, subtype: "message_deleted" },
      { ...base, channel_type: "channel", channel: "C0ALERTS", user: "U0ALICE", text: "what failed?" },
    ])
      expect((await events.send(envelope(team, event))).status).toBe(200);
    expect(await bot.messages("D0ALICE")).toEqual([]);
  });

  it("someone of another organization (Slack Connect) gets the sentence, and none of the workspace's data", async () => {
    const { bot, org, events, team } = await workspace();
    await org.addRun(101, "failed");
    await bot.cron();
    const { events: sent } = await events.post("D0ALICE", "what failed today?");
    await org.clearRequests();
    for (const e of sent) expect((await events.send(fromAnotherOrg(e, team))).status).toBe(200);
    const answers = (await bot.messages("D0ALICE")).filter((m) => m.bot_id);
    expect(answers.map((m) => m.text)).toEqual([OUTSIDER_REFUSAL]);
    expect(visibleText(answers[0] ?? {})).not.toContain("Checkout");
    expect(await org.requestTotal()).toBe(0);
  });

  it("a guest of the workspace gets the guest sentence, not the tests of their channel", async () => {
    const { bot, dm } = await workspace();
    await bot.person("U0GUEST", "guest", ["C0ALERTS"]);
    const answers = await dm("what failed today?", "U0GUEST");
    expect(answers.map((m) => m.text)).toEqual([GUEST_REFUSAL]);
  });

  it("counts 'today' from midnight where the person is (users.info tz), in a DM as in a mention", async () => {
    const { bot, events, dm } = await workspace();
    await bot.person("U0ALICE", "member", ["C0ALERTS", "C0PRIVATE"], "Pacific/Kiritimati");
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Pacific/Kiritimati" }).format(new Date());
    const midnight = Date.parse(`${day}T00:00:00+14:00`) / 1000;
    const since = (text: string) => Number(/since <!date\^(\d+)\^/.exec(text)?.[1]);
    expect(since(visibleText((await dm("what failed today?"))[0] ?? {}))).toBe(midnight);
    const { message } = await events.say("C0ALERTS", "@Decipher what failed today?");
    const [answer] = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts);
    expect(since(visibleText(answer ?? {}))).toBe(midnight);
  });

  it("help in a DM shows questions to type as they are, without @Decipher, about the person's channels", async () => {
    const { dm } = await workspace();
    const help = visibleText((await dm("help"))[0] ?? {});
    expect(help).toContain("`what failed today?`");
    expect(help).not.toContain("@Decipher what failed");
    expect(help).toContain("your channels' collections");
  });

  it("when Slack cannot say which channels the person is in, says so rather than answer from none or all", async () => {
    const { bot, dm } = await workspace();
    await bot.slackFault("users.conversations", "error", 1, { error: "missing_scope" });
    const [answer] = await dm("what failed today?");
    expect(answer?.text).toBe(CHANNELS_UNCHECKED);
  });
});
