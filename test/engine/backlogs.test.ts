import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { runIdsIn } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const failureAlerts = async (bot: ReturnType<typeof createBot>, runId: number) =>
  (await bot.posted()).filter((m) => visibleText(m).includes(`runs/${runId}`));

describe("a backlog deeper than one poll reads", () => {
  it("announces a failure buried under more runs than one poll reads", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    for (let i = 0; i < 320; i++) await org.addRun(101, "passed");
    await bot.cron();
    expect(await failureAlerts(bot, failed.id)).toHaveLength(1);
  }, 60_000);

  it("400 failed runs between two polls, more than a poll reads: every one is told, over the next polls, once", async () => {
    const { bot, org } = await subscribedBot();
    const failed: number[] = [];
    for (let i = 0; i < 400; i++) failed.push((await org.addRun(101, "failed")).id);
    const t0 = Date.now();
    for (let i = 0; i < 4; i++) await bot.cron(new Date(t0 + i * 60_000));
    const told = (await bot.posted()).flatMap((m) =>
      runIdsIn(visibleText(m)).filter((id) => failed.includes(id)),
    );
    expect(told).toHaveLength(failed.length);
    expect(new Set(told).size).toBe(failed.length);
    // Read to the end: a later poll finds nothing more to tell.
    const posts = (await bot.posted()).length;
    await bot.cron(new Date(t0 + 5 * 60_000));
    expect(await bot.posted()).toHaveLength(posts);
  }, 120_000);

  it("a run still running under more than a poll's pages of newer runs, failing later, is announced", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    for (let i = 0; i < 320; i++) await org.addRun(101, "passed");
    await bot.cron();
    await org.setRun(slow.id, "failed");
    await bot.cron();
    await bot.cron();
    expect(await failureAlerts(bot, slow.id)).toHaveLength(1);
  }, 60_000);

  it("a first run still running at subscribe, failing after 50 newer runs, is announced", async () => {
    const bot = createBot({ apiKey: (await subscribedBot()).org.apiKey });
    const org = emulator.org(bot.env.DECIPHER_API_KEY as string);
    const test = await org.addTest("Fresh test");
    const first = await org.addRun(test.id, "running");
    await bot.command("/decipher", `subscribe test ${test.id}`);
    for (let i = 0; i < 50; i++) await org.addRun(test.id, "passed");
    await bot.cron();
    await org.setRun(first.id, "failed");
    await bot.cron();
    expect(await failureAlerts(bot, first.id)).toHaveLength(1);
  }, 60_000);

  it("does not call a test recovered when an older run passes late", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    await org.addRun(101, "failed");
    await bot.cron();
    await org.setRun(slow.id, "passed");
    await bot.cron();
    const text = (await bot.posted()).map(visibleText).join("\n");
    expect(text).not.toMatch(/passed again/i);
  });

  it("a run that only passes costs its one ledger row and no KV write; a poll with nothing new writes nothing", async () => {
    const { bot, org } = await subscribedBot();
    // The first pass after hours of quiet moves the stored watermark (the demo data is old).
    await org.addRun(101, "passed");
    await bot.cron();
    const writes = { storage: 0, kv: 0 };
    for (let i = 0; i < 3; i++) {
      await org.addRun(101, "passed");
      const report = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date() });
      writes.storage += report.writes.storage;
      writes.kv += report.writes.kv;
    }
    expect(writes).toEqual({ storage: 3, kv: 0 });
    const idle = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date() });
    expect(idle.writes).toEqual({ storage: 0, kv: 0 });
  });
});

describe("the subrequest budget of one invocation", () => {
  it("a backlog of failed runs stays within 50 subrequests per object invocation, and all arrive", async () => {
    const { bot, org } = await subscribedBot();
    const runs = [];
    for (let i = 0; i < 60; i++) runs.push(await org.addRun(101, "failed"));
    for (let cycle = 0; cycle < 4; cycle++) {
      const before = (await bot.slackCalls()).length;
      const vendorBefore = (await org.requests()).total;
      await bot.cron(new Date(Date.now() + cycle * 60_000));
      const slack = (await bot.slackCalls()).length - before;
      const vendor = (await org.requests()).total - vendorBefore;
      expect(slack + vendor, `cycle ${cycle}`).toBeLessThanOrEqual(50);
    }
    const text = (await bot.posted()).map(visibleText).join("\n");
    const threads = await bot.messages();
    const everything = `${text}\n${threads.map(visibleText).join("\n")}`;
    for (const run of runs) expect(everything).toContain(`runs/${run.id}`);
  }, 60_000);
});

describe("a digest during a Slack outage", () => {
  it("a due digest that Slack keeps refusing is retried on a backoff, not every minute", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "digest 09:00 UTC");
    const { DigestStore } = await import("../../src/store/digest-store.ts");
    const due = new Date(
      ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt,
    );
    await bot.slackFault("chat.postMessage", "error", 1000, { error: "internal_error" });
    const tries = async () => (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage").length;
    const before = await tries();
    for (let n = 1; n <= 20; n++) await bot.cron(new Date(due.getTime() + n * 60_000 + 1_000));
    // Minutes 1–3, then every fifth minute (5, 10, 15, 20): 7 tries, not 20.
    expect((await tries()) - before).toBeLessThanOrEqual(8);
  }, 60_000);
});
