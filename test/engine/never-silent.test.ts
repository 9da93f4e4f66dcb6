import { describe, expect, it } from "vitest";
import { emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { health, objectState, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Alerts that stop must not stop silently: the channel is told once when a subscription is
// paused, once when its polls have failed for 15 minutes, and once when they work again;
// /health says how long ago a poll last succeeded and how many subscriptions are failing.

const MINUTE = 60_000;

describe("never silent", () => {
  it("a paused subscription gets one channel notice, however many crons follow", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "not_in_channel" });
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await bot.cron(new Date(t0 + i * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toMatch(/paused: .*not_in_channel/);
    expect(visibleText(posted[0] ?? {})).toContain("/decipher subscribe test 101");
    const h = await health(bot);
    expect(h.pausedSubscriptions).toBe(1);
    expect(h.failingSubscriptions).toBe(1);
  });

  it("a test deleted at Decipher (404) is paused with a notice naming it, shown in status and /health, and polled no more", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const readsBefore = (await emulator.org(org.apiKey).requests()).byRoute.testRuns;
    await org.fault("testRuns", "404", 1_000);
    for (let i = 1; i <= 4; i++) await bot.cron(new Date(t0 + i * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toMatch(/paused: test 101 no longer exists in Decipher/);
    // A deleted test cannot be fixed here: the notice offers both ways out, resuming it or
    // removing it from the channel.
    expect(visibleText(posted[0] ?? {})).toContain("/decipher subscribe test 101");
    expect(visibleText(posted[0] ?? {})).toContain("/decipher unsubscribe test 101");
    expect(visibleText(posted[0] ?? {})).not.toMatch(/Fix it/);
    expect(await statusText(bot)).toMatch(
      /paused\*? since .*no longer exists in Decipher .*or unsubscribe if it is gone/,
    );
    const h = await health(bot);
    expect(h.pausedSubscriptions).toBe(1);
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.paused?.reason).toBe("test 101 no longer exists in Decipher (it answered 404).");
    // One 404 paused it: the crons after it read nothing more.
    expect((await emulator.org(org.apiKey).requests()).byRoute.testRuns - readsBefore).toBe(1);
  });

  it.each([
    "restricted_action",
    "restricted_action_read_only_channel",
    "restricted_action_thread_only_channel",
  ])(
    "a channel where posting is restricted (%s) pauses that subscription, not the workspace",
    async (error) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await bot.slackFault("chat.postMessage", "error", 1_000, { error });
      const t0 = Date.now();
      for (let i = 0; i < 4; i++) await bot.cron(new Date(t0 + i * MINUTE));
      const tries = await bot.alertPosts();
      // The alert, then the pause's notice, each once: no retry every minute.
      expect(tries).toHaveLength(2);
      const state = await objectState<TestSubscription>(bot, "test", 101);
      expect(state?.paused?.reason).toContain(error);
      expect(await statusText(bot)).toMatch(/paused/);
      const h = await health(bot);
      expect(h.pausedSubscriptions).toBe(1);
      expect(h.problems ?? []).not.toContainEqual(expect.stringMatching(/Slack refuses the bot/));
    },
  );

  it("a pause whose notice Slack refuses too is tried once, not every minute", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 2, { error: "channel_not_found" });
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await bot.cron(new Date(t0 + i * MINUTE));
    const tries = await bot.alertPosts();
    expect(tries).toHaveLength(2);
    expect(await bot.posted()).toEqual([]);
    expect(await statusText(bot)).toMatch(/paused/);
  });

  it("polls failing for 15 minutes: one notice; recovery: one notice; /health tells the age and the count", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const now = Date.now();
    await bot.cron(new Date(now - 50 * MINUTE));
    expect((await health(bot)).lastSuccessfulPollAt).toBe(new Date(now - 50 * MINUTE).toISOString());

    await org.fault("testRuns", "500", 1_000);
    await bot.cron(new Date(now - 40 * MINUTE));
    expect(await bot.posted()).toEqual([]);
    let h = await health(bot);
    expect(h.failingSubscriptions).toBe(1);

    // 16 minutes of failing polls: the channel is told, once.
    await bot.cron(new Date(now - 24 * MINUTE));
    await bot.cron(new Date(now - 8 * MINUTE));
    let posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toMatch(/have not worked for 15 minutes: Decipher failed \(500\)/);
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.erroringSince).toBe(new Date(now - 40 * MINUTE).toISOString());
    expect(state?.notice).toBe("erroring");

    h = await health(bot);
    expect(h.ok).toBe(false);
    expect(h.failingSubscriptions).toBe(1);
    expect(h.lastSuccessfulPollAt).toBe(new Date(now - 50 * MINUTE).toISOString());
    expect(h.lastSuccessfulPollAgeSeconds).toBeGreaterThanOrEqual(50 * 60);
    expect(h.lastSuccessfulPollAgeSeconds).toBeLessThan(52 * 60);
    expect(h.problems).toEqual(expect.arrayContaining([expect.stringMatching(/no successful poll/)]));
    expect(await statusText(bot)).toMatch(/Decipher failed \(500\)/);

    // Decipher answers again: one "working again", then nothing more.
    await ctl.clearFaults();
    await bot.cron(new Date(now));
    await bot.cron(new Date(now + MINUTE));
    await bot.cron(new Date(now + 2 * MINUTE));
    posted = await bot.posted();
    expect(posted).toHaveLength(2);
    expect(visibleText(posted[1] ?? {})).toMatch(/working again/);
    h = await health(bot);
    expect(h.ok).toBe(true);
    expect(h.failingSubscriptions).toBe(0);
    expect(h.lastSuccessfulPollAgeSeconds).toBe(0);

    // A second outage is told again (the notice state was reset by the recovery).
    await org.fault("testRuns", "500", 1_000);
    await bot.cron(new Date(now + 3 * MINUTE));
    await bot.cron(new Date(now + 19 * MINUTE));
    await ctl.clearFaults();
    expect(await bot.posted()).toHaveLength(3);
  }, 60_000);

  it("failing for less than 15 minutes tells nobody", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const t0 = Date.now();
    await org.fault("testRuns", "500", 1_000);
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + 14 * MINUTE));
    await ctl.clearFaults();
    await bot.cron(new Date(t0 + 15 * MINUTE));
    expect(await bot.posted()).toEqual([]);
  }, 60_000);
});
