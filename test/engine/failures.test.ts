import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { objectState, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";
import { eventsOf } from "../helpers/events.ts";

describe("nothing lost when Decipher fails", () => {
  // Faults outnumber the client's in-place attempts (3) so the whole cycle fails; a malformed
  // body is not retried in place, so one suffices.
  it.each([
    ["429", "rate-limited", 3],
    ["500", "failed (500)", 3],
    ["malformed", "could not read", 1],
    ["hang", "did not answer in time", 3],
  ] as const)(
    "keeps the cursor on vendor %s, records it for status, and alerts once it recovers",
    async (kind, said, count) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await org.fault("testRuns", kind, count, 0);
      await bot.cron();
      expect(await bot.posted()).toEqual([]);
      expect((await objectState(bot, "test", 101, "C0ALERTS"))?.lastError?.message).toContain(said);
      const status = JSON.parse((await bot.command("/decipher", "status")).body);
      expect(visibleText(status)).toContain(said);

      await bot.cron();
      await bot.cron();
      expect(await bot.posted()).toHaveLength(1);
      expect((await objectState(bot, "test", 101, "C0ALERTS"))?.lastError).toBeNull();
    },
  );

  it("keeps polling the other subscriptions when one fails", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    await bot.command("/decipher", "subscribe test 101");
    await bot.command("/decipher", "subscribe collection 501 growth:1");
    await org.addRun(101, "failed");
    await org.grow(501, 1);
    await org.fault("testRuns", "500", 3);
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] ?? {})).not.toMatch(/Test failed/);
  });
});

describe("nothing lost, nothing doubled when Slack fails", () => {
  it("honours a short Retry-After and posts once", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 1 });
    await bot.cron();
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
    const posts = await bot.alertPosts();
    expect(posts.map((c) => c.status)).toEqual([429, 200]);
  });

  it("leaves a long Retry-After to the first cycle after it and posts once", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 120 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);
    await bot.cron(new Date(t0 + 60_000));
    expect(await bot.posted()).toEqual([]);
    await bot.cron(new Date(t0 + 120_000));
    await bot.cron(new Date(t0 + 180_000));
    expect(await bot.posted()).toHaveLength(1);
  });

  it("a Slack 5xx is an unknown outcome: looked up next cycle, and sent once when Slack does not have it", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "500", 2);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);
    await bot.cron(new Date(t0 + 60_000));
    await bot.cron(new Date(t0 + 120_000));
    await bot.cron(new Date(t0 + 180_000));
    expect(await bot.posted()).toHaveLength(1);
    const calls = await bot.slackCalls();
    // Never resent blindly: each resend follows a history lookup that did not find it.
    expect(await bot.alertPosts()).toHaveLength(3);
    expect(calls.filter((c) => c.method === "conversations.history").length).toBeGreaterThanOrEqual(2);
  });

  it.each(["lost", "500"] as const)(
    "a post whose answer is lost (%s) shows in status and Home as being checked, in words, from the first poll",
    async (kind) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await bot.slackFault("chat.postMessage", kind, 1);
      await bot.cron();
      const status = await statusText(bot);
      expect(status).toMatch(/checking whether it landed/);
      expect(status).not.toMatch(/http_5\d\d|internal_error/);
      // Nothing failed yet: the post may well be in the channel, so neither says "failed".
      expect(status).not.toMatch(/polling failed/);
      const events = eventsOf(bot);
      await events.openHome();
      const home = visibleText({ blocks: (await events.views()).home?.blocks ?? [] });
      expect(home).toMatch(/checking whether it landed/);
      expect(home).not.toMatch(/failing since/);
    },
  );

  it.each(["channel_not_found", "not_in_channel", "is_archived"])(
    "pauses the subscription on %s, shows why in status, and tries Slack no more within the hour",
    async (error) => {
      const { bot, org } = await subscribedBot();
      await org.addRun(101, "failed");
      await bot.slackFault("chat.postMessage", "error", 1, { error });
      await bot.cron();
      const paused = await objectState(bot, "test", 101, "C0ALERTS");
      expect(paused?.paused?.reason).toContain(error);
      const calls = (await bot.slackCalls()).length;
      const requests = (await org.requests()).total;
      await bot.cron();
      expect((await bot.slackCalls()).length).toBe(calls);
      // Decipher is still read, so each failure meanwhile gets its fate (test/engine/paused-channel.test.ts).
      expect((await org.requests()).total).toBeGreaterThan(requests);
      const status = JSON.parse((await bot.command("/decipher", "status")).body);
      expect(visibleText(status)).toMatch(/paused/);
    },
  );

  it("a token Slack rejects once holds the alert back without pausing, and delivers it after", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "invalid_auth" });
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
    expect((await objectState(bot, "test", 101, "C0ALERTS"))?.paused).toBeNull();
    const status = visibleText(JSON.parse((await bot.command("/decipher", "status")).body));
    expect(status).toMatch(/invalid_auth/);
    const health = (await (await bot.send(new Request("http://bot.test/health"))).body) as string;
    expect(JSON.parse(health)).toMatchObject({
      ok: false,
      problems: expect.arrayContaining([expect.stringContaining("invalid_auth")]),
    });

    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
    const after = JSON.parse((await bot.send(new Request("http://bot.test/health"))).body);
    expect(after.problems ?? []).not.toContainEqual(expect.stringContaining("invalid_auth"));
  });

  it("refuses to subscribe a channel the bot cannot join, with the fix, and stores nothing", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.slackFault("conversations.join", "error", 1, {
      error: "method_not_supported_for_channel_type",
    });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0NOTIN" });
    const replies = (await bot.messages("C0NOTIN")).filter((m) => m.ephemeral);
    expect(visibleText(replies.at(-1) ?? {})).toMatch(/\/invite @Decipher/);
    expect(await objectState(bot, "test", 101, "C0NOTIN")).toBeNull();
  });
});

describe("cost and concurrency", () => {
  it("an idle cycle costs one vendor request per subscription, no KV writes and no Slack calls", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    for (const id of [101, 102, 103]) await bot.command("/decipher", `subscribe test ${id}`);
    await bot.command("/decipher", "subscribe collection 501");
    await bot.cron(); // settles anything pending since the baseline
    const before = {
      vendor: (await org.requests()).total,
      slack: (await bot.slackCalls()).length,
      ...bot.kv,
    };
    const report = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date() });
    expect(report.polled).toBe(4);
    expect((await org.requests()).total - before.vendor).toBe(4);
    expect((await bot.slackCalls()).length - before.slack).toBe(0);
    expect(bot.kv.writes - before.writes).toBe(0);
    // The objects write neither their own storage nor their KV copies when nothing happened.
    expect(report.writes).toEqual({ storage: 0, kv: 0 });
    expect(bot.kv.deletes - before.deletes).toBe(0);
    expect(bot.kv.lists - before.lists).toBe(0);
  });

  it("two overlapping cycles announce a failure once", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await Promise.all([bot.cron(), bot.cron(), bot.cron()]);
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
  });
});

describe("a message Slack refuses", () => {
  it("goes out as its text alone rather than blocking the subscription", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed", { oneLineSummary: "Cart total off by one cent" });
    // The alert carries a chart of its runs' durations: Slack refuses it with the chart, then
    // without it, and the text goes alone.
    await bot.slackFault("chat.postMessage", "error", 2, { error: "invalid_blocks" });
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(posts[0]?.blocks ?? []).toEqual([]);
    const calls = await bot.alertPosts();
    expect(calls.map((c) => c.error ?? "ok")).toEqual(["invalid_blocks", "invalid_blocks", "ok"]);
    expect(posts[0]?.text).toContain("Cart total off by one cent");
  });
});
