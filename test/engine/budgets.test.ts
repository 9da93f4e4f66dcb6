import { describe, expect, it } from "vitest";
import { type Bot, emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import { FAILURES_PER_REPLY } from "../../src/messages/streak-reply.ts";
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

/**
 * A burst big enough to need more than one invocation although replies tell up to
 * `FAILURES_PER_REPLY` failures each: 400 failures are 51 posts.
 */
const BURST = 400;
const postsFor = (failures: number) => 1 + Math.ceil((failures - 1) / FAILURES_PER_REPLY);

async function burstOfFailures(testId = 101, bot?: Bot) {
  const made = bot ? { bot, org: { apiKey: bot.env.DECIPHER_API_KEY as string } } : await subscribedBot();
  const ctl = emulator.org(made.org.apiKey);
  const failed: number[] = [];
  for (let i = 0; i < BURST; i++) failed.push((await ctl.addRun(testId, "failed")).id);
  return { bot: made.bot, ctl, failed };
}

async function expectEachOnceInOneThread(bot: Bot, failed: number[]) {
  const posted = await bot.posted();
  const announced = posted.flatMap((m) => runIdsIn(visibleText(m)).filter((id) => failed.includes(id)));
  // Each run in exactly one message.
  expect(announced.sort()).toEqual([...failed].sort());
  // One thread: the alert of the first failure read (a poll reads the newest of a deeper
  // backlog first), and the others as replies under it.
  const [parent, ...replies] = posted;
  expect(failed).toContain(runIdsIn(visibleText(parent ?? {}))[0]);
  expect(replies.every((m) => m.thread_ts === parent?.ts)).toBe(true);
}

describe("subrequest budget per invocation", () => {
  it("400 failed runs of one test: each invocation stays within 45 calls; the rest follows; each run once", async () => {
    const { bot, ctl, failed } = await burstOfFailures();
    const costs: Array<{ slack: number; vendor: number; posts: number }> = [];
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) {
      const { report, slack, vendor } = await measuredPoll(bot, ctl.requestTotal, new Date(t0 + i * MINUTE));
      costs.push({ slack, vendor, posts: report.posts });
      expect(slack + vendor).toBeLessThanOrEqual(SUBREQUESTS_PER_INVOCATION);
    }
    // The first invocation spends all of its budget; the next ones post the rest.
    expect((costs[0]?.slack ?? 0) + (costs[0]?.vendor ?? 0)).toBe(SUBREQUESTS_PER_INVOCATION);
    expect(costs[1]?.posts).toBeGreaterThan(0);
    expect(costs.reduce((n, c) => n + c.posts, 0)).toBe(postsFor(BURST));
    await expectEachOnceInOneThread(bot, failed);
    // None was tried beyond the budget: each post sent once.
    const posts = await bot.alertPosts();
    expect(posts).toHaveLength(postsFor(BURST));
  }, 60_000);

  it("the same burst through the cron: everything arrives within three cycles, each run once", async () => {
    const { bot, failed } = await burstOfFailures();
    const t0 = Date.now();
    for (let i = 0; i < 3; i++) await bot.cron(new Date(t0 + i * MINUTE));
    await expectEachOnceInOneThread(bot, failed);
  }, 60_000);

  it("two subscriptions bursting at once each get their own budget (one invocation per object)", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0DEMO" });
    await burstOfFailures(101, bot);
    await burstOfFailures(102, bot);
    await bot.cron();
    // Each object spends its own 45 in the one cycle: together more posts than one budget holds.
    const alerts = (await bot.posted("C0ALERTS")).length;
    const demo = (await bot.posted("C0DEMO")).length;
    expect(alerts).toBeGreaterThan(SUBREQUESTS_PER_INVOCATION / 2);
    expect(demo).toBeGreaterThan(SUBREQUESTS_PER_INVOCATION / 2);
    expect(alerts + demo).toBeGreaterThan(SUBREQUESTS_PER_INVOCATION);
  }, 60_000);

  it("Slack 5xx retries draw from the same budget: a burst under 5xx never exceeds it", async () => {
    const { bot, ctl, failed } = await burstOfFailures();
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
    // Every post, the 3 refused attempts, their lookups, and the parent's edits.
    expect(slackCalls).toBeGreaterThanOrEqual(postsFor(BURST) + 3);
  }, 60_000);
});
