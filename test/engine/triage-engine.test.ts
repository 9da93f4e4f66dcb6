import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { ACTION_IDS } from "../../src/messages/action-ids.ts";
import { encodeSnoozeValue } from "../../src/messages/triage-values.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const MINUTE = 60_000;
const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const stored = () => new SubscriptionStore(env.STATE).get("C0ALERTS", "test", 101);

/** Chooses a Snooze menu option of an alert, as Slack sends a static_select choice. */
async function chooseSnooze(
  bot: Awaited<ReturnType<typeof subscribedBot>>["bot"],
  message: StoredMessage,
  hours: number | "pass",
  userId = "U0ALICE",
) {
  const ref = { teamId: await bot.team(), channelId: "C0ALERTS", kind: "test" as const, id: 101 };
  const value = encodeSnoozeValue(ref, hours === "pass" ? { kind: "until-pass" } : { kind: "for", hours });
  if (!value) throw new Error(`the menu offers no snooze of ${hours}`);
  return bot.choose(message, ACTION_IDS.triageSnooze, value, { userId });
}

async function failingAlert() {
  const { bot, org } = await subscribedBot();
  const first = await org.addRun(101, "failed");
  const t0 = Date.now();
  await bot.cron(new Date(t0));
  const parent = (await bot.posted())[0] as StoredMessage;
  return { bot, org, first, t0, parent };
}

const parentNow = async (bot: Awaited<ReturnType<typeof subscribedBot>>["bot"], ts: string) =>
  (await bot.messages()).find((m) => m.ts === ts) as StoredMessage;

describe("triage through the subscription's single writer", () => {
  it("Acknowledge shows who is looking on the parent; a second person is added, a second click changes nothing", async () => {
    const { bot, parent } = await failingAlert();
    await bot.click(parent, "triage_acknowledge");
    await bot.click(parent, "triage_acknowledge");
    await bot.click(parent, "triage_acknowledge", { userId: "U0BOB" });
    const text = visibleText(await parentNow(bot, parent.ts));
    expect(text).toMatch(/<@U0ALICE> and <@U0BOB> are looking/);
    expect((await stored())?.acknowledgedBy?.map((a) => a.userId)).toEqual(["U0ALICE", "U0BOB"]);
  });

  it("while snoozed nothing is posted; when the snooze ends one message sums up, and the parent kept its first run", async () => {
    const { bot, org, first, t0, parent } = await failingAlert();
    await chooseSnooze(bot, parent, 1);
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/snoozed by <@U0ALICE>/);
    const before = (await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length;
    for (let i = 1; i <= 3; i++) {
      await org.addRun(101, "failed");
      await bot.cron(new Date(t0 + i * MINUTE));
    }
    expect((await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length).toBe(before);
    await bot.cron(new Date(t0 + 61 * MINUTE));
    const thread = (await bot.messages()).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(thread.map(visibleText).join("\n")).toMatch(/failed 3 more times while snoozed/);
    expect(topLevel(await bot.posted())).toHaveLength(1);
    expect(visibleText(await parentNow(bot, parent.ts))).toContain(`runs/${first.id}`);
  });

  it("a pass during a snooze ends it quietly, turning the parent green", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await chooseSnooze(bot, parent, "pass");
    const before = (await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length;
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await bot.messages()).filter((m) => m.bot_id && !m.ephemeral).length).toBe(before);
    expect(visibleText(await parentNow(bot, parent.ts))).toMatch(/passed again/i);
    expect((await stored())?.snooze ?? null).toBeNull();
  });

  it("Mute unsubscribes the channel, and the parent says who and how to undo it", async () => {
    const { bot, org, t0, parent } = await failingAlert();
    await bot.click(parent, "triage_mute");
    expect(await stored()).toBeNull();
    const text = visibleText(await parentNow(bot, parent.ts));
    expect(text).toMatch(/muted by <@U0ALICE>/i);
    expect(text).toContain("/decipher subscribe test 101");
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect(await bot.posted()).toHaveLength(1);
  });

  it("a button on an old alert whose subscription is gone answers so, and changes nothing", async () => {
    const { bot, parent } = await failingAlert();
    await bot.command("/decipher", "unsubscribe test 101");
    await bot.click(parent, "triage_acknowledge");
    const replies = (await bot.messages()).filter((m) => m.ephemeral);
    expect(visibleText(replies.at(-1) as StoredMessage)).toMatch(/no longer exists|not subscribed|gone/i);
    expect(await stored()).toBeNull();
  });
});
