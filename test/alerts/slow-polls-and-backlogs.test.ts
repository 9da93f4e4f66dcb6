import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pollChunk } from "../../src/alerts/poll-cycle.ts";
import { createDeps } from "../../src/deps.ts";
import { readConfig } from "../../src/env.ts";
import { DigestStore } from "../../src/state/digests.ts";
import { keys } from "../../src/state/keys.ts";
import { SubscriptionStore } from "../../src/state/subscriptions.ts";
import { createBot, newOrg, ordinaryNow, visibleText } from "../helpers/bot.ts";
import { emulatorOrg, subscribedBot } from "../helpers/emulator.ts";

// Found by a second independent review: each test here failed before its fix.

const CHANNEL = "C0ALERTS";
const store = () => new SubscriptionStore(env.STATE);

function gate() {
  let release!: () => void;
  let reached!: () => void;
  const open = new Promise<void>((r) => (release = r));
  const hit = new Promise<void>((r) => (reached = r));
  return { open, hit, release, reached };
}

/** Deps whose chat.postMessage waits on a gate (a slow Slack, or a cycle caught mid-post). */
function depsWithSlowSlack(bot: ReturnType<typeof createBot>) {
  const deps = createDeps(readConfig(bot.env), env.STATE);
  const g = gate();
  const chat = deps.slack.chat as unknown as { postMessage: (a: unknown) => Promise<unknown> };
  const orig = chat.postMessage;
  chat.postMessage = async (a: unknown) => {
    g.reached();
    await g.open;
    return orig(a);
  };
  return { deps, ...g };
}

const failureAlerts = async (bot: ReturnType<typeof createBot>, runId: number) =>
  (await bot.posted()).filter((m) => visibleText(m).includes(`runs/${runId}`));

describe("a backlog deeper than one poll reads", () => {
  it("a run still running under more than 4 pages of newer runs, failing later, is announced", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    for (let i = 0; i < 200; i++) await org.addRun(101, "passed");
    await bot.cron();
    await org.setRun(slow.id, "failed");
    await bot.cron();
    expect(await failureAlerts(bot, slow.id)).toHaveLength(1);
  }, 60_000);
});

describe("a test with no settled run at subscribe", () => {
  it("a first run still running at subscribe, failing after 50 newer runs, is announced", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulatorOrg(apiKey);
    const test = await org.addTest("Fresh checkout test");
    const first = await org.addRun(test.id, "running");
    await bot.command("/decipher", `subscribe test ${test.id}`);
    for (let i = 0; i < 50; i++) await org.addRun(test.id, "passed");
    await bot.cron();
    await org.setRun(first.id, "failed");
    await bot.cron();
    expect(await failureAlerts(bot, first.id)).toHaveLength(1);
  }, 60_000);
});

describe("a poll slower than the cron interval", () => {
  it("a cycle whose Slack post takes more than 50 s is not repeated by the next minute's cycle", async () => {
    const { bot, org } = await subscribedBot();
    const run = await org.addRun(101, "failed");
    const key = keys.subscription(CHANNEL, "test", 101);
    const t0 = ordinaryNow();
    const slow = depsWithSlowSlack(bot);
    const a = pollChunk(slow.deps, [key], t0, "cycle-A");
    await slow.hit; // cycle A holds the lease and is inside chat.postMessage
    await bot.cron(new Date(t0.getTime() + 60_000)); // the next minute's cycle
    slow.release();
    await a;
    expect(await failureAlerts(bot, run.id)).toHaveLength(1);
  });
});

describe("an unsubscribe while a post is in flight", () => {
  it("the cycle does not write the subscription back, and the hourly reconcile does not revive it", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    const key = keys.subscription(CHANNEL, "test", 101);
    const slow = depsWithSlowSlack(bot);
    const a = pollChunk(slow.deps, [key], ordinaryNow(), "cycle-A");
    await slow.hit;
    await bot.command("/decipher", "unsubscribe test 101");
    slow.release();
    await a;
    const revived = await store().get(CHANNEL, "test", 101);
    const hour = new Date();
    hour.setUTCHours(hour.getUTCHours() + 1, 0, 0, 0);
    await bot.cron(hour); // hourly reconcile
    const before = (await bot.posted()).length;
    const later = await org.addRun(101, "failed");
    await bot.cron(new Date(hour.getTime() + 2 * 60_000));
    expect(await failureAlerts(bot, later.id)).toHaveLength(0);
    expect((await bot.posted()).length).toBe(before);
    expect(revived).toBeNull();
  });
});

describe("a digest during a Slack outage", () => {
  it("a due digest that Slack keeps refusing does not cost a KV write every minute", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "digest 09:00 UTC");
    const due = new Date(
      ((await new DigestStore(env.STATE).get(CHANNEL)) as { nextDueAt: string }).nextDueAt,
    );
    await bot.slackFault("chat.postMessage", "error", 1000, { error: "internal_error" });
    const writes = bot.kv.writes;
    for (let n = 1; n <= 20; n++) await bot.cron(new Date(due.getTime() + n * 60_000 + 1_000));
    expect(bot.kv.writes - writes).toBeLessThanOrEqual(6);
  }, 60_000);
});

describe("the subrequest budget of one invocation", () => {
  it("a backlog of failed runs stays within 50 subrequests per invocation", async () => {
    const { bot, org } = await subscribedBot();
    for (let i = 0; i < 30; i++) await org.addRun(101, "failed");
    const before = (await bot.slackCalls()).length;
    const vendorBefore = (await org.requests()).total;
    await bot.cron();
    const slack = (await bot.slackCalls()).length - before;
    const vendor = (await org.requests()).total - vendorBefore;
    expect(slack + vendor).toBeLessThanOrEqual(50);
  }, 60_000);
});

describe("digests of several channels", () => {
  it("two overlapping cycles send each channel's digest once", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    for (const channelId of ["C0GENERAL", "C0DEMO"]) {
      await bot.command("/decipher", "subscribe test 101", { channelId });
      await bot.command("/decipher", "digest 09:00 UTC", { channelId });
    }
    const due = new Date(
      ((await new DigestStore(env.STATE).get("C0GENERAL")) as { nextDueAt: string }).nextDueAt,
    );
    const at = new Date(due.getTime() + 5_000);
    await Promise.all([bot.cron(at), bot.cron(at), bot.cron(at)]);
    await bot.cron(new Date(at.getTime() + 60_000));
    for (const channelId of ["C0GENERAL", "C0DEMO"]) {
      const digests = (await bot.posted(channelId)).filter((m) => /digest/i.test(visibleText(m)));
      expect(digests, channelId).toHaveLength(1);
    }
  });
});
