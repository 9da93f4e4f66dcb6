import { describe, expect, it } from "vitest";
import { runPollCycle } from "../../src/alerts/poll-cycle.ts";
import { readConfig } from "../../src/env.ts";
import { SUBREQUESTS_PER_INVOCATION } from "../../src/util/subrequest-budget.ts";
import { type Bot, ordinaryNow, visibleText } from "../helpers/bot.ts";
import { emulatorControls, runIdsIn } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// One object invocation may make at most 45 external subrequests (vendor and Slack, retries
// included). A burst of failures is spread over cycles: nothing lost, nothing doubled.

/** One cron, and what it cost outside the Worker. */
async function measuredCron(bot: Bot, requests: () => Promise<number>, at: Date) {
  const calls = (await bot.slackCalls()).length;
  const vendor = await requests();
  const report = await runPollCycle(bot.env, readConfig(bot.env), { now: at });
  return {
    report,
    slack: (await bot.slackCalls()).length - calls,
    vendor: (await requests()) - vendor,
  };
}

describe("subrequest budget per invocation", () => {
  it("60 failed runs of one test: every cycle stays within 45 calls, each run is announced exactly once", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulatorControls(org.apiKey);
    const failed: number[] = [];
    for (let i = 0; i < 60; i++) failed.push((await ctl.addRun(101, "failed")).id);

    const costs: Array<{ slack: number; vendor: number; posts: number }> = [];
    const start = ordinaryNow().getTime();
    for (let i = 0; i < 4; i++) {
      const { report, slack, vendor } = await measuredCron(
        bot,
        ctl.runRequests,
        new Date(start + i * 60_000),
      );
      costs.push({ slack, vendor, posts: report.posts });
      expect(slack + vendor).toBeLessThanOrEqual(SUBREQUESTS_PER_INVOCATION);
    }
    // The first cycle spends (nearly) all of its budget, the rest arrives in the next one.
    expect(costs[0]?.posts).toBeGreaterThanOrEqual(40);
    expect(costs[0]?.posts).toBeLessThan(60);
    expect(costs[1]?.posts).toBe(60 - (costs[0]?.posts ?? 0));
    expect(costs[2]?.posts).toBe(0);
    expect(costs[3]?.posts).toBe(0);

    const posted = await bot.posted();
    expect(posted).toHaveLength(60);
    const announced = posted.flatMap((m) => runIdsIn(visibleText(m)).filter((id) => failed.includes(id)));
    expect([...new Set(announced)].sort()).toEqual([...failed].sort());
    // One per message: a run never appears twice.
    expect(announced).toHaveLength(60);
    // One thread: the first failure's alert, and 59 replies under it.
    const [parent, ...replies] = posted;
    expect(parent?.thread_ts ?? parent?.ts).toBe(parent?.ts);
    expect(replies.every((m) => m.thread_ts === parent?.ts)).toBe(true);
    expect(runIdsIn(visibleText(parent ?? {}))).toContain(failed[0]);
    // No post was refused for want of budget: none was even tried beyond it.
    const posts = (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage");
    expect(posts).toHaveLength(60);
  }, 60_000);

  it("two subscriptions bursting at once each get their own budget (one invocation per object)", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102");
    const ctl = emulatorControls(org.apiKey);
    for (let i = 0; i < 30; i++) {
      await ctl.addRun(101, "failed");
      await ctl.addRun(102, "failed");
    }
    const { report, slack } = await measuredCron(bot, ctl.runRequests, ordinaryNow());
    // 30 + 30 posts fit: each object spends its own 45, not a shared one.
    expect(report.posts).toBe(60);
    expect(slack).toBeGreaterThanOrEqual(60);
    expect(await bot.posted()).toHaveLength(60);
  }, 60_000);

  it("Slack 5xx retries draw from the same budget: a burst under 5xx never exceeds it", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulatorControls(org.apiKey);
    for (let i = 0; i < 50; i++) await ctl.addRun(101, "failed");
    // Five 500s in a row: each is retried once in place, then left to a later cycle (Slack
    // outages back off to every fifth minute, hence the spacing).
    await bot.slackFault("chat.postMessage", "500", 5);
    const start = ordinaryNow().getTime();
    let total = 0;
    for (let i = 0; i < 5; i++) {
      const { slack, vendor } = await measuredCron(bot, ctl.runRequests, new Date(start + i * 300_000));
      expect(slack + vendor).toBeLessThanOrEqual(SUBREQUESTS_PER_INVOCATION);
      total += slack;
    }
    const posted = await bot.posted();
    expect(posted).toHaveLength(50);
    const ids = posted.flatMap((m) => runIdsIn(visibleText(m)));
    expect(new Set(ids).size).toBe(ids.length);
    expect(total).toBeGreaterThan(50);
  }, 60_000);
});
