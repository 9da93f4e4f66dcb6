import { describe, expect, it } from "vitest";
import { type Bot, standInUrl, visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { health, ledgerOf, objectState, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";
import { eventsOf } from "../helpers/events.ts";

// Issue #34, case 6: a channel where Slack refuses the bot's posts (an admin restricted who may
// post) pauses its subscription with the reason; it is tried again at most once an hour, each
// failure meanwhile still gets a fate, and subscribing there again resumes it at once.

const MINUTE = 60_000;

/** What an admin does in Slack: who may post in the channel (null lifts it). */
async function restrict(bot: Bot, restriction: string | null, channelId = "C0ALERTS") {
  const res = await fetch(`${standInUrl}/__slack/channels/restrict`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ botToken: bot.botToken, channelId, restriction }),
  });
  if (!res.ok) throw new Error(`restrict: ${res.status}`);
}

const postTimes = async (bot: Bot, channel = "C0ALERTS") =>
  (await bot.slackCalls())
    .filter((c) => c.method === "chat.postMessage" && (c.params as { channel?: string }).channel === channel)
    .map((c) => Date.parse(String(c.at)));

/** A restricted channel, its first failure refused at t0: the subscription is paused. */
async function pausedAt() {
  const { bot, org } = await subscribedBot();
  await restrict(bot, "restricted_action");
  await org.addRun(101, "failed");
  const t0 = Date.now();
  await bot.cron(new Date(t0));
  expect((await objectState<TestSubscription>(bot, "test", 101))?.paused).toBeTruthy();
  return { bot, org, t0 };
}

describe("a channel where Slack refuses the bot's posts", () => {
  it("is tried at most once an hour over 3 hours, and each failure meanwhile gets a fate", async () => {
    const { bot, org, t0 } = await pausedAt();
    // Tries counted by the hour of simulated time each cron stands for.
    const triesBy = new Map<number, number>();
    let before = (await postTimes(bot)).length;
    for (let m = 5; m <= 180; m += 5) {
      if (m % 30 === 0) await org.addRun(101, "failed");
      await bot.cron(new Date(t0 + m * MINUTE));
      const after = (await postTimes(bot)).length;
      const hour = Math.floor((m - 1) / 60);
      triesBy.set(hour, (triesBy.get(hour) ?? 0) + after - before);
      before = after;
    }
    // Once in each of the 3 hours, at the time the pause holds, never more.
    expect([...triesBy.values()]).toEqual([1, 1, 1]);
    expect(await bot.posted()).toEqual([]);

    const failed = (await ledgerOf(bot, "test", 101)).filter(
      (r) => r.status === "failed" && r.fate !== "baseline",
    );
    expect(failed.length).toBeGreaterThanOrEqual(7);
    for (const row of failed)
      expect({ id: row.id, fate: row.fate, reason: row.reason }).toMatchObject({
        fate: "counted",
        reason: "paused",
      });
    expect((await objectState<TestSubscription>(bot, "test", 101))?.overdue ?? 0).toBe(0);
    expect((await health(bot)).overdue).toBe(0);
  });

  it("resumes within an hour of the restriction being lifted, and says what was held", async () => {
    const { bot, org, t0 } = await pausedAt();
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 10 * MINUTE));
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 20 * MINUTE));
    await restrict(bot, null);
    for (let m = 25; m <= 65; m += 5) await bot.cron(new Date(t0 + m * MINUTE));

    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.paused).toBeNull();
    const [back] = await bot.posted();
    // Every failure since the pause is accounted: the refused one and the two after it.
    expect(visibleText(back ?? {})).toMatch(/3 failed runs .*not posted/);
    expect(visibleText(back ?? {})).toMatch(/working again|back/i);
    const failed = (await ledgerOf(bot, "test", 101)).filter(
      (r) => r.status === "failed" && r.fate !== "baseline",
    );
    expect(failed.map((r) => r.fate)).toEqual(["counted", "counted", "counted"]);

    // The next failure alerts as usual.
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 70 * MINUTE));
    expect((await bot.posted()).length).toBe(2);
  });

  it("resumes at once when someone subscribes there again", async () => {
    const { bot, org, t0 } = await pausedAt();
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 5 * MINUTE));
    await restrict(bot, null);
    await bot.command("/decipher", "subscribe test 101");
    expect((await objectState<TestSubscription>(bot, "test", 101))?.paused).toBeNull();
    // The admin who subscribed again is told it resumed, and since when it was paused.
    const reply = (await bot.messages()).filter((m) => m.ephemeral).at(-1);
    expect(visibleText(reply ?? {})).toMatch(/Resumed test .* paused here since <!date/);
    // What failed while paused is still counted, not forgotten by the new subscribe.
    expect(await statusText(bot)).toMatch(/2 failed runs in the last 24 h not posted/);

    await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 6 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toMatch(/Test failed/);
  });

  it("is shown with its reason and next try in status (here and from another channel), on Home and on /health", async () => {
    const { bot } = await pausedAt();
    const said =
      /Paused in <#C0ALERTS> since .*: Slack says .*restricted_action.* I'll try again .*, or subscribe there again to resume now\./;
    expect(await statusText(bot)).toMatch(said);
    expect(await statusText(bot, "C0GENERAL")).toMatch(said);
    const events = eventsOf(bot);
    await events.openHome();
    expect(visibleText({ blocks: (await events.views()).home?.blocks ?? [] })).toMatch(said);
    const h = await health(bot);
    expect(h.pausedSubscriptions).toBe(1);
    // Counted on /health, which stays ok: an archived or restricted channel is an admin's choice.
    expect(h.failingSubscriptions).toBe(1);
    expect(h.paused).toMatch(
      /1 subscription\(s\) paused: Slack refuses posts in a channel \(tried again once an hour\)/,
    );
  });

  it("a collection there is tried once an hour too, and its growth alerts once Slack takes posts again", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await restrict(bot, "restricted_action_read_only_channel");
    await org.grow(501, 4);
    await bot.cron(new Date(t0 + MINUTE));
    const paused = await objectState(bot, "collection", 501);
    expect(paused?.paused?.reason).toMatch(/read-only/);
    const tries = (await postTimes(bot)).length;
    for (let m = 5; m <= 55; m += 10) await bot.cron(new Date(t0 + m * MINUTE));
    expect((await postTimes(bot)).length).toBe(tries);

    await restrict(bot, null);
    await bot.cron(new Date(t0 + 62 * MINUTE));
    expect((await objectState(bot, "collection", 501))?.paused).toBeNull();
    await bot.cron(new Date(t0 + 63 * MINUTE));
    const texts = (await bot.posted()).map((m) => visibleText(m));
    expect(texts[0]).toMatch(/working again/);
    expect(texts.slice(1).join("\n")).toMatch(/grew|sessions/i);
  });
});

describe("the hourly try of a restricted channel, when Slack's answer to it is lost", () => {
  it("resumes on the notice Slack stored, within minutes: the next failure alerts, and 'working again' is said once", async () => {
    const { bot, org, t0 } = await pausedAt();
    await restrict(bot, null);
    // Slack stores the "working again" notice, and the answer never reaches the bot.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + 60 * MINUTE));
    for (let m = 61; m <= 65; m++) await bot.cron(new Date(t0 + m * MINUTE));
    expect((await objectState<TestSubscription>(bot, "test", 101))?.paused).toBeNull();

    // The next failure is alerted, not held as if the channel still refused posts.
    const failed = await org.addRun(101, "failed");
    for (let m = 66; m <= 130; m += 4) await bot.cron(new Date(t0 + m * MINUTE));
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id);
    expect(row?.fate).toBe("announced");
    const notices = (await bot.posted()).filter((m) => /working again/.test(visibleText(m)));
    expect(notices).toHaveLength(1);
  });
});
