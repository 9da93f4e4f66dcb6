import { abortAllDurableObjects, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Bot, visibleText } from "../../dev/in-workerd/bot.ts";
import { subscriptionObject } from "../../src/objects/addresses.ts";
import { ledgerOf } from "../helpers/cases.ts";
import { cycleReportOf } from "../helpers/cycle-report.ts";
import { subscribedBot } from "../helpers/emulator.ts";

/**
 * The cases the exactly-once rounds (exactly-once.test.ts) draw at random, one at a time with
 * a forced order: overlapping crons, a cron while a post hangs, an object restarted between
 * polls or killed during a post, and a lost answer. Each ends with the run in the channel once:
 * an unknown outcome is looked up by its key (src/engine/outbox.ts), never posted blindly.
 */

const SLACK_TIMEOUT_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setUp() {
  const { bot, org } = await subscribedBot();
  // Real time here: unknown outcomes are looked up by the next cron, not 30 s later.
  Object.assign(bot.env, { SLACK_TIMEOUT_MS: String(SLACK_TIMEOUT_MS), SLACK_LOOKUP_AFTER_MS: "0" });
  const ref = { teamId: await bot.team(), channelId: "C0ALERTS", kind: "test" as const, id: 101 };
  const object = () => subscriptionObject(bot.env as never, ref);
  return { bot, org, object };
}

/** Parent alerts and thread replies naming the run. */
const copiesOf = async (bot: Bot, runId: number) =>
  (await bot.posted()).filter((m) => JSON.stringify(m.blocks ?? []).includes(`/runs/${runId}`)).length;

async function status(bot: Bot): Promise<string> {
  return visibleText(JSON.parse((await bot.command("/decipher", "status")).body));
}

/** Waits until the stand-in has logged a post (the hung one), at most ~1 s. */
async function postReachedSlack(bot: Bot): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await bot.alertPosts()).length > 0) return;
    await sleep(10);
  }
  throw new Error("the post never reached the stand-in");
}

/** Busy polls in the CycleReports the crons log (src/index.ts) while `work` runs. */
async function busyPolls(work: () => Promise<unknown>): Promise<number> {
  const log = console.log;
  let busy = 0;
  console.log = (...args: unknown[]) => {
    const line = args[0];
    busy += cycleReportOf(line)?.busy ?? 0;
    log(...args);
  };
  try {
    await work();
  } finally {
    console.log = log;
  }
  return busy;
}

describe("overlapping crons", () => {
  it("three crons at once announce a failed run once", async () => {
    const { bot, org } = await setUp();
    const run = await org.addRun(101, "failed");
    await Promise.all([bot.cron(), bot.cron(), bot.cron()]);
    await bot.cron();
    expect(await copiesOf(bot, run.id)).toBe(1);
  });

  it("a cron while a post is slow finds the object busy; the run is posted once", async () => {
    const { bot, org } = await setUp();
    const run = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: SLACK_TIMEOUT_MS / 2 });
    const busy = await busyPolls(async () => {
      const first = bot.cron();
      await postReachedSlack(bot);
      await bot.cron();
      await first;
    });
    expect(busy).toBe(1);
    await bot.cron();
    expect(await copiesOf(bot, run.id)).toBe(1);
    expect(await status(bot)).not.toContain("did not confirm");
  });

  it("a post hanging past the Slack timeout is an unknown outcome: found by its key, never reposted", async () => {
    const { bot, org } = await setUp();
    const run = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: SLACK_TIMEOUT_MS * 3 });
    const first = bot.cron();
    await postReachedSlack(bot);
    await bot.cron();
    await first;
    await bot.cron();
    await bot.cron();
    expect(await copiesOf(bot, run.id)).toBe(1);
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === run.id)?.fate).toBe("announced");
  });
});

describe("object restarts", () => {
  it("an object evicted between polls keeps its state: old failures stay announced once", async () => {
    const { bot, org, object } = await setUp();
    const first = await org.addRun(101, "failed");
    await bot.cron();
    await evictDurableObject(object());
    const second = await org.addRun(101, "failed");
    await bot.cron();
    await bot.cron();
    expect(await copiesOf(bot, first.id)).toBe(1);
    expect(await copiesOf(bot, second.id)).toBe(1);
  });

  it("objects killed while a post hangs leave the intent: it is found by its key, never posted again", async () => {
    const { bot, org } = await setUp();
    const run = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: SLACK_TIMEOUT_MS * 3 });
    const first = bot.cron().catch(() => {});
    await postReachedSlack(bot);
    await abortAllDurableObjects();
    await first;
    await bot.cron();
    await bot.cron();
    expect(await copiesOf(bot, run.id)).toBe(1);
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === run.id)?.fate).toBe("announced");
  });

  it("a crash between the intent and the post: Slack does not have it, so it is sent once", async () => {
    const { bot, org, object } = await setUp();
    const run = await org.addRun(101, "failed");
    await runInDurableObject(object(), (_instance, state) => {
      state.storage.sql.exec(
        "INSERT OR REPLACE INTO outbox (key, state, ts, thread_ts, intended_at) VALUES (?, 'intended', NULL, NULL, ?)",
        `run:${run.id}`,
        new Date(Date.now() - 60_000).toISOString(),
      );
    });
    await bot.cron();
    await bot.cron();
    expect(await copiesOf(bot, run.id)).toBe(1);
  });
});

describe("outage messages", () => {
  it("an outage message whose answer came too late is not followed by each test alerting alone", async () => {
    const { bot, org } = await setUp();
    await bot.command("/decipher", "subscribe test 102");
    const runs = [await org.addRun(101, "failed"), await org.addRun(102, "failed")];
    // The first post of the cycle is the outage message (both of #alerts' tests failed): it lands late.
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: SLACK_TIMEOUT_MS * 3 });
    await bot.cron();
    await bot.cron();
    await bot.cron();
    for (const run of runs) expect(await copiesOf(bot, run.id)).toBe(1);
    // Each test's run is grouped under the one outage message the lookup found.
    const fates = await Promise.all(
      [101, 102].map(
        async (id) => (await ledgerOf(bot, "test", id)).find((r) => r.status === "failed")?.fate,
      ),
    );
    expect(fates).toEqual(["grouped", "grouped"]);
  });
});

describe("lost answers", () => {
  it("a lost answer (Slack stored the post, answered 500) is found by its key: one copy, no second post", async () => {
    const { bot, org } = await setUp();
    const run = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron();
    await bot.cron();
    const calls = await bot.alertPosts();
    expect(calls.map((c) => c.status)).toEqual([500]);
    expect(await copiesOf(bot, run.id)).toBe(1);
  });
});
