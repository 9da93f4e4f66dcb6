import { describe, expect, it } from "vitest";
import type { EmulatorOrg } from "../../dev/emulator/control-client.ts";
import { type Bot, createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { objectState, runIdsIn, unfatedFailures } from "../helpers/cases.ts";

// More runs in an hour than one poll reads (3 pages of 100): every failure is announced once,
// the watermark moves on once the unread runs are over an hour old, the remembered ids stay
// bounded, and an idle poll afterwards is one vendor request again.

const MINUTE = 60_000;

async function cycle(bot: Bot, requests: () => Promise<number>, at: number) {
  const before = await requests();
  const report = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date(at) });
  return { report, vendor: (await requests()) - before };
}

/** A test with one settled run 70 minutes ago, subscribed in #alerts. */
async function busyTest() {
  const apiKey = await newOrg();
  const ctl = emulator.org(apiKey);
  const test = await emulator.org(apiKey).addTest("Smoke test, every few seconds");
  await ctl.addRun(test.id, "passed", { createdAt: new Date(Date.now() - 70 * MINUTE).toISOString() });
  const bot = createBot({ apiKey });
  await bot.command("/decipher", `subscribe test ${test.id}`);
  return { bot, ctl, testId: test.id };
}

/**
 * `count` runs recorded between 28 and 13 minutes ago (inside the window a new subscription
 * polls), then one now: more runs in an hour than one poll reads, then quiet.
 */
async function manyRuns(ctl: EmulatorOrg, testId: number, count: number, failedEvery = 0) {
  const start = Date.now() - 28 * MINUTE;
  const failed: number[] = [];
  for (let i = 0; i < count; i++) {
    // A failure every `failedEvery` runs, the first among the oldest (which one poll does not read).
    const status = failedEvery > 0 && i % failedEvery === 5 ? "failed" : "passed";
    const run = await ctl.addRun(testId, status, {
      createdAt: new Date(start + Math.floor((i * 15 * MINUTE) / count)).toISOString(),
    });
    if (status === "failed") failed.push(run.id);
  }
  const newest = (await ctl.addRun(testId, "passed")).id;
  return { failed, newest };
}

describe("more runs in an hour than one poll reads", () => {
  it("320 runs: failures once each, the watermark moves on, ids stay bounded, idle = 1 request", async () => {
    const { bot, ctl, testId } = await busyTest();
    const { failed, newest } = await manyRuns(ctl, testId, 320, 40);

    const t0 = Date.now();
    const first = await cycle(bot, ctl.requestTotal, t0);
    // Three pages of everything, and the failed runs on their own (the outage check reads
    // twice, the second time with the failed runs of what the first left unread), and one read
    // of the test's history for what its failures mean.
    expect(first.vendor).toBeLessThanOrEqual(10);
    const announced = (await bot.posted()).flatMap((m) => runIdsIn(visibleText(m)));
    for (const id of failed) expect(announced.filter((x) => x === id)).toHaveLength(1);

    // Every failure has its fate in the ledger, and status shows the newest settled run.
    await cycle(bot, ctl.requestTotal, t0 + MINUTE);
    await cycle(bot, ctl.requestTotal, t0 + 40 * MINUTE);
    const state = await objectState<TestSubscription>(bot, "test", testId);
    expect(state?.lastRunId).toBe(newest);
    expect(await unfatedFailures(bot, "test", testId)).toEqual([]);
    expect(state?.overdue ?? 0).toBe(0);

    // Idle: one request, no writes, nothing posted again.
    const posts = (await bot.posted()).length;
    const idle = await cycle(bot, ctl.requestTotal, t0 + 41 * MINUTE);
    expect(idle.vendor).toBe(1);
    expect(idle.report.writes).toEqual({ storage: 0, kv: 0 });
    expect((await bot.posted()).length).toBe(posts);
    const all = (await bot.posted()).flatMap((m) => runIdsIn(visibleText(m)));
    for (const id of failed) expect(all.filter((x) => x === id)).toHaveLength(1);
  }, 120_000);

  it("250 passing runs: the watermark keeps up at once and nothing is posted", async () => {
    const { bot, ctl, testId } = await busyTest();
    const { newest } = await manyRuns(ctl, testId, 250);
    const t0 = Date.now();
    await cycle(bot, ctl.requestTotal, t0);
    const state = await objectState<TestSubscription>(bot, "test", testId);
    expect(state?.lastRunId).toBe(newest);
    expect(await bot.posted()).toEqual([]);
    expect((await cycle(bot, ctl.requestTotal, t0 + MINUTE)).vendor).toBe(1);
  }, 120_000);
  // A burst of more runs than one poll reads, all within ten minutes: the watermark still
  // moves once they are an hour old, but every window since (watermark − 10 min) holds the
  // whole burst again, so each idle poll reads 3 pages and the failed runs (4 requests)
  // until a run more than 10 minutes newer arrives. Found here; see the report.
  it("a burst of 320 runs in one minute: an idle poll an hour later is one request", async () => {
    const { bot, ctl, testId } = await busyTest();
    for (let i = 0; i < 320; i++) await ctl.addRun(testId, i === 3 ? "failed" : "passed");
    const t0 = Date.now();
    await cycle(bot, ctl.requestTotal, t0);
    await cycle(bot, ctl.requestTotal, t0 + 61 * MINUTE);
    const idle = await cycle(bot, ctl.requestTotal, t0 + 62 * MINUTE);
    expect(idle.vendor).toBe(1);
  }, 120_000);
});
