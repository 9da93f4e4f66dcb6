import { describe, expect, it } from "vitest";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { health, objectState, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A token or scope refusal concerns the whole workspace and is often passing (a rotation, a
// bad deploy): it holds alerts back and shows on /health and in status, never pauses. Only a
// channel-level refusal pauses the subscription of that channel.

describe("Slack token errors", () => {
  it("a one-off invalid_auth does not pause: shown while it lasts, then the alert is delivered once", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "invalid_auth" });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);

    const held = await objectState<TestSubscription>(bot, "test", 101);
    expect(held?.paused).toBeNull();
    expect(held?.lastError?.message).toContain("invalid_auth");
    const during = await health(bot);
    expect(during.ok).toBe(false);
    expect(during.problems).toEqual(expect.arrayContaining([expect.stringContaining("invalid_auth")]));
    expect(during.pausedSubscriptions).toBe(0);
    const status = await statusText(bot);
    expect(status).toMatch(/refuses the bot's token or scopes \(invalid_auth\)/);
    expect(status).not.toMatch(/\bpaused\b/);

    await bot.cron(new Date(t0 + 60_000));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    await bot.cron(new Date(t0 + 120_000));
    expect(await bot.posted()).toHaveLength(1);

    const after = await health(bot);
    expect(after.ok).toBe(true);
    expect(after.problems ?? []).toEqual([]);
    expect(after.failingSubscriptions).toBe(0);
    expect(await statusText(bot)).not.toMatch(/invalid_auth/);
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.lastError).toBeNull();
    expect(state?.paused).toBeNull();
  });

  it.each(["token_revoked", "account_inactive", "missing_scope", "not_authed"])(
    "%s several cycles in a row holds the alert back without pausing, then posts it once",
    async (error) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await bot.slackFault("chat.postMessage", "error", 3, { error });
      const t0 = Date.now();
      for (let i = 0; i < 6; i++) await bot.cron(new Date(t0 + i * 60_000));
      // Refused at minutes 0, 1 and 2; the backoff skips minutes 3 and 4; minute 5 delivers.
      const posted = await bot.posted();
      expect(posted).toHaveLength(1);
      const state = await objectState<TestSubscription>(bot, "test", 101);
      expect(state?.paused).toBeNull();
      const tries = await bot.alertPosts();
      expect(tries.filter((c) => c.error === error)).toHaveLength(3);
      expect(tries).toHaveLength(4);
      expect((await health(bot)).ok).toBe(true);
    },
  );

  it.each(["channel_not_found", "not_in_channel", "is_archived"])(
    "%s (channel-level) pauses, and /health counts it as failing",
    async (error) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await bot.slackFault("chat.postMessage", "error", 1, { error });
      await bot.cron();
      const state = await objectState<TestSubscription>(bot, "test", 101);
      expect(state?.paused?.reason).toContain(error);
      const h = await health(bot);
      expect(h.pausedSubscriptions).toBe(1);
      expect(h.failingSubscriptions).toBe(1);
      // Not a workspace condition: no token problem is reported.
      expect(h.problems ?? []).not.toContainEqual(expect.stringContaining("refuses the bot"));
    },
  );

  it("the token condition shows in every channel's status while it lasts", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0DEMO" });
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "invalid_auth" });
    await bot.cron();
    expect(await statusText(bot, "C0DEMO")).toMatch(/invalid_auth/);
  });
});
