import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { cronWith, ledgerOf, runIdsIn, until } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A post Slack stores but answers late (or never in time) must not be posted again by the
// cron that fires meanwhile, nor by the ones after.

const postsTried = async (bot: { alertPosts(): Promise<unknown[]> }) => (await bot.alertPosts()).length;

describe("a Slack post that hangs past the next cron", () => {
  it("leads to exactly one message: the next cron finds the poll busy, later ones do not repost", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    // Stored at once, answered after 4 s; the bot gives up after 2 s.
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 4_000 });
    const timeout = { SLACK_TIMEOUT_MS: "2000" };
    const t0 = Date.now();
    const first = cronWith(bot, timeout, new Date(t0));
    await until(async () => (await postsTried(bot)) === 1, 5_000, "the first post");

    // The next minute's cron, while the first is still waiting for Slack.
    const second = await runPollCycle({ ...bot.env, ...timeout }, readConfig({ ...bot.env, ...timeout }), {
      now: new Date(t0 + 60_000),
    });
    expect(second.busy).toBe(1);
    expect(second.posts).toBe(0);
    await first;

    for (let i = 2; i < 5; i++) await cronWith(bot, timeout, new Date(t0 + i * 60_000));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(failed.id);
    expect(await postsTried(bot)).toBe(1);

    // The unanswered post was looked up by its key, not retried: the ledger has its ts.
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id);
    expect(row).toMatchObject({ fate: "announced", ts: posted[0]?.ts });
  }, 30_000);

  it("a slow answer within the timeout: the overlapping cron is busy, the thread continues normally", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_500 });
    const t0 = Date.now();
    const first = bot.cron(new Date(t0));
    await until(async () => (await postsTried(bot)) === 1, 5_000, "the first post");
    await bot.cron(new Date(t0 + 60_000));
    await first;
    const second = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + 120_000));
    const posted = await bot.posted();
    expect(posted).toHaveLength(2);
    expect(posted[1]?.thread_ts).toBe(posted[0]?.ts);
    expect(runIdsIn(visibleText(posted[1] ?? {}))).toContain(second.id);
  }, 30_000);

  it("five overlapping crons post each alert exactly once", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0DEMO" });
    await bot.command("/decipher", "subscribe collection 501", { channelId: "C0GENERAL" });
    const a1 = await org.addRun(101, "failed");
    const b = await org.addRun(102, "failed");
    const a2 = await org.addRun(101, "failed");
    await org.grow(501, 10);
    // The first post hangs a while, so the five crons truly overlap.
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_000 });
    const at = new Date();
    await Promise.all(Array.from({ length: 5 }, () => bot.cron(at)));
    await Promise.all(Array.from({ length: 5 }, () => bot.cron(new Date(at.getTime() + 60_000))));
    // Test 101: an alert and a reply in its thread; test 102: an alert; collection 501: an alert.
    const alerts = await bot.posted("C0ALERTS");
    expect(alerts.map((m) => runIdsIn(visibleText(m)).filter((id) => id === a1.id || id === a2.id))).toEqual([
      [a1.id],
      [a2.id],
    ]);
    expect(alerts[1]?.thread_ts).toBe(alerts[0]?.ts);
    const demo = await bot.posted("C0DEMO");
    expect(demo).toHaveLength(1);
    expect(runIdsIn(visibleText(demo[0] ?? {}))).toContain(b.id);
    expect(await bot.posted("C0GENERAL")).toHaveLength(1);
    expect(await postsTried(bot)).toBe(4);
  }, 30_000);

  it("five overlapping crons during an outage of three tests in one channel: one outage message, posted once", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102");
    await bot.command("/decipher", "subscribe test 103");
    const runs = [
      await org.addRun(101, "failed"),
      await org.addRun(102, "failed"),
      await org.addRun(103, "failed"),
    ];
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_000 });
    const at = new Date();
    await Promise.all(Array.from({ length: 5 }, () => bot.cron(at)));
    await Promise.all(Array.from({ length: 5 }, () => bot.cron(new Date(at.getTime() + 60_000))));
    // One outage message naming the three failures, posted once.
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toMatch(/3 tests failing at once/);
    expect(runIdsIn(visibleText(posted[0] ?? {})).sort()).toEqual(runs.map((r) => r.id).sort());
    expect(await postsTried(bot)).toBe(1);
  }, 30_000);
});
