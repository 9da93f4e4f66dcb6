import { describe, expect, it } from "vitest";
import { type Bot, emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import { SUBREQUESTS_PER_INVOCATION } from "../../src/util/subrequest-budget.ts";
import { pollOnce, runIdsIn } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// One object invocation may make at most 45 external subrequests (vendor and Slack, retries
// included). A burst of failures is spread over invocations: nothing lost, nothing doubled.

const MINUTE = 60_000;

/** One invocation of the subscription's object, and what it cost outside the Worker. */
async function measuredPoll(bot: Bot, requests: () => Promise<number>, at: Date, testId = 101) {
  const calls = (await bot.slackCalls()).length;
  const vendor = await requests();
  const report = await pollOnce(bot, "test", testId, at);
  return { report, slack: (await bot.slackCalls()).length - calls, vendor: (await requests()) - vendor };
}

async function sixtyFailures() {
  const { bot, org } = await subscribedBot();
  const ctl = emulator.org(org.apiKey);
  const failed: number[] = [];
  for (let i = 0; i < 60; i++) failed.push((await ctl.addRun(101, "failed")).id);
  return { bot, ctl, failed };
}

async function expectEachOnceInOneThread(bot: Bot, failed: number[]) {
  const posted = await bot.posted();
  expect(posted).toHaveLength(failed.length);
  const announced = posted.flatMap((m) => runIdsIn(visibleText(m)).filter((id) => failed.includes(id)));
  // Each run in exactly one message.
  expect(announced.sort()).toEqual([...failed].sort());
  // One thread: the first failure's alert, and the others as replies under it.
  const [parent, ...replies] = posted;
  expect(runIdsIn(visibleText(parent ?? {}))).toContain(failed[0]);
  expect(replies.every((m) => m.thread_ts === parent?.ts)).toBe(true);
}

describe("subrequest budget per invocation", () => {
  it("60 failed runs of one test: each invocation stays within 45 calls; the rest follows; each run once", async () => {
    const { bot, ctl, failed } = await sixtyFailures();
    const costs: Array<{ slack: number; vendor: number; posts: number }> = [];
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) {
      const { report, slack, vendor } = await measuredPoll(bot, ctl.requestTotal, new Date(t0 + i * MINUTE));
      costs.push({ slack, vendor, posts: report.posts });
      expect(slack + vendor).toBeLessThanOrEqual(SUBREQUESTS_PER_INVOCATION);
    }
    // The first invocation spends all of its budget (1 read, 1 read of the test's history for
    // what the failure means, 42 posts, 1 parent edit).
    expect(costs[0]).toEqual({ slack: 43, vendor: 2, posts: 42 });
    expect(costs[1]?.posts).toBe(18);
    expect(costs.slice(2).map((c) => c.posts)).toEqual([0, 0]);
    await expectEachOnceInOneThread(bot, failed);
    // None was tried beyond the budget: exactly one post per run.
    const posts = (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage");
    expect(posts).toHaveLength(60);
  }, 60_000);

  it("the same burst through the cron: everything arrives within two cycles, each run once", async () => {
    const { bot, failed } = await sixtyFailures();
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await bot.cron(new Date(t0 + i * MINUTE));
    await expectEachOnceInOneThread(bot, failed);
  }, 60_000);

  it("two subscriptions bursting at once each get their own budget (one invocation per object)", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0DEMO" });
    const ctl = emulator.org(org.apiKey);
    for (let i = 0; i < 30; i++) {
      await ctl.addRun(101, "failed");
      await ctl.addRun(102, "failed");
    }
    await bot.cron();
    // 30 + 30 posts in one cycle: each object spends its own 45, not a shared one.
    expect(await bot.posted("C0ALERTS")).toHaveLength(30);
    expect(await bot.posted("C0DEMO")).toHaveLength(30);
  }, 60_000);

  it("Slack 5xx retries draw from the same budget: a burst under 5xx never exceeds it", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const failed: number[] = [];
    for (let i = 0; i < 50; i++) failed.push((await ctl.addRun(101, "failed")).id);
    // Three 500s in a row: each is an unknown outcome, looked up by the next poll (history) and
    // sent again only when Slack does not have it; Slack outages back off after three minutes.
    await bot.slackFault("chat.postMessage", "500", 3);
    const t0 = Date.now();
    let slackCalls = 0;
    for (let i = 0; i < 8; i++) {
      const { slack, vendor } = await measuredPoll(bot, ctl.requestTotal, new Date(t0 + i * MINUTE));
      expect(slack + vendor).toBeLessThanOrEqual(SUBREQUESTS_PER_INVOCATION);
      slackCalls += slack;
    }
    await expectEachOnceInOneThread(bot, failed);
    // 50 posts, the 3 refused attempts, their lookups, and the parent's edits.
    expect(slackCalls).toBeGreaterThanOrEqual(55);
  }, 60_000);
});
