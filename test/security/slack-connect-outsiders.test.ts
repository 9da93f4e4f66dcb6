import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { OUTSIDER_REFUSAL, SHARED_CHANNEL_NOTE } from "../../src/messages/outsiders.ts";
import { eventsOf, fromAnotherOrg, OTHER_ORG_TEAM } from "../helpers/events.ts";

/**
 * Issue #36, finding 2: in a channel shared with another organization (Slack Connect), someone
 * of that organization reaches the bot like a member does. Whatever they try (a command, a
 * mention, a pasted link, a button, the Home tab) they get none of this workspace's Decipher
 * data, and a short sentence saying why that never repeats what they typed.
 */
async function sharedChannel() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const org = emulator.org(apiKey);
  return { bot, org, events: eventsOf(bot), team: await bot.team() };
}

const ephemeralText = (body: string) => (JSON.parse(body) as { text?: string }).text;

describe("someone of another organization in a shared channel gets no Decipher data", () => {
  it("`@Decipher sessions <email>`: one reply in the thread saying why, no session, no vendor request", async () => {
    const { bot, org, events, team } = await sharedChannel();
    const { message, events: sent } = await events.post("C0ALERTS", "@Decipher sessions jane@acme.com");
    await org.clearRequests();
    for (const envelope of sent) expect((await events.send(fromAnotherOrg(envelope, team))).status).toBe(200);
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id);
    expect(replies.map((m) => [m.thread_ts, m.text])).toEqual([[message.ts, OUTSIDER_REFUSAL]]);
    expect(visibleText(replies[0] ?? {})).not.toContain("jane@acme.com");
    expect(await org.requestTotal()).toBe(0);
  });

  it("a pasted test link is not unfurled", async () => {
    const { bot, org, events, team } = await sharedChannel();
    const { events: sent } = await events.post("C0ALERTS", "https://app.decipher.test/tests/101");
    await org.clearRequests();
    for (const envelope of sent) expect((await events.send(fromAnotherOrg(envelope, team))).status).toBe(200);
    expect((await bot.slackCalls()).filter((c) => c.method === "chat.unfurl")).toEqual([]);
    expect(await org.requestTotal()).toBe(0);
  });

  it("/sessions and /decipher: the sentence, only to them, and nothing read or changed", async () => {
    const { bot, org } = await sharedChannel();
    await org.clearRequests();
    const sessions = await bot.command("/sessions", "jane@acme.com", { teamId: OTHER_ORG_TEAM });
    const subscribe = await bot.command("/decipher", "subscribe test 101", { teamId: OTHER_ORG_TEAM });
    for (const ack of [sessions, subscribe]) {
      expect(ack.status).toBe(200);
      expect(JSON.parse(ack.body)).toEqual({ response_type: "ephemeral", text: OUTSIDER_REFUSAL });
    }
    expect(await org.requestTotal()).toBe(0);
    expect(ephemeralText((await bot.command("/decipher", "list")).body)).not.toContain("101");
  });

  it("a button on an alert the workspace posted there: the sentence, only to them; the alert is unchanged", async () => {
    const { bot, org } = await sharedChannel();
    await bot.command("/decipher", "subscribe test 101");
    await org.addRun(101, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    if (!alert) throw new Error("no alert was posted");
    const before = visibleText(alert);
    const click = await bot.click(alert, "triage_acknowledge", { userId: "U0BOB", teamId: OTHER_ORG_TEAM });
    expect(click.status).toBe(200);
    const [after] = await bot.posted();
    expect(visibleText(after ?? {})).toBe(before);
    const told = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral).at(-1);
    expect(told?.text).toBe(OUTSIDER_REFUSAL);
  });

  it("the Home tab shows the sentence, not the workspace's dashboard", async () => {
    const { bot, events, team } = await sharedChannel();
    await bot.command("/decipher", "subscribe test 101");
    const opened = await events.homeOpened();
    expect((await events.send(fromAnotherOrg(opened, team))).status).toBe(200);
    const home = JSON.stringify(await events.views());
    expect(home).toContain(OUTSIDER_REFUSAL);
    expect(home).not.toContain("101");
  });
});

describe("subscribing a channel shared with another organization", () => {
  // Alerts there are the workspace's choice: the admin who subscribes is told who will see them.
  it("is allowed, and the reply says the channel is shared with another organization", async () => {
    const { bot } = await sharedChannel();
    await bot.shareChannel("C0ALERTS");
    await bot.command("/decipher", "subscribe test 101");
    const shared = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral).at(-1);
    expect(visibleText(shared ?? {})).toMatch(/Subscribed this channel to test/);
    // In a block: Slack shows a message's blocks, its text only in notifications.
    expect(visibleText({ blocks: shared?.blocks ?? [] })).toContain(SHARED_CHANNEL_NOTE);

    await bot.command("/decipher", "subscribe test 102", { channelId: "C0GENERAL" });
    const own = (await bot.messages("C0GENERAL")).filter((m) => m.ephemeral).at(-1);
    expect(visibleText(own ?? {})).toMatch(/Subscribed this channel to test/);
    expect(visibleText(own ?? {})).not.toContain("another organization");
  });
});
