import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { objectState, runIdsIn } from "../helpers/cases.ts";

// The vendor does not document its list order. Against one that lists oldest first, the
// baseline must still cover the newest runs, and polls must still find new ones.

async function oldestFirstBot() {
  const apiKey = await newOrg();
  const ctl = emulator.org(apiKey);
  await ctl.listOrder("oldest");
  return { bot: createBot({ apiKey }), ctl };
}

describe("a vendor that lists runs oldest first", () => {
  it("baseline and first polls announce no history", async () => {
    const { bot, ctl } = await oldestFirstBot();
    // More history than the baseline's one page, with failures among the newest.
    const history: number[] = [];
    for (let i = 0; i < 40; i++) history.push((await ctl.addRun(101, i % 7 === 6 ? "failed" : "passed")).id);
    await ctl.addRun(101, "failed");
    await bot.command("/decipher", "subscribe test 101");
    await bot.cron();
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
  });

  it("a new failure after the baseline is announced once", async () => {
    const { bot, ctl } = await oldestFirstBot();
    await bot.command("/decipher", "subscribe test 101");
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
    const failed = await ctl.addRun(101, "failed");
    await bot.cron();
    await bot.cron();
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(failed.id);
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.lastRunId).toBe(failed.id);
  });

  it("a backlog larger than one poll reads is worked through oldest first, each failure once", async () => {
    const { bot, ctl } = await oldestFirstBot();
    await bot.command("/decipher", "subscribe test 101");
    const failed: number[] = [];
    for (let i = 0; i < 330; i++) {
      const run = await ctl.addRun(101, i % 50 === 49 ? "failed" : "passed");
      if (i % 50 === 49) failed.push(run.id);
    }
    for (let i = 0; i < 3; i++) await bot.cron();
    const posted = await bot.posted();
    const ids = posted.flatMap((m) => runIdsIn(visibleText(m))).filter((id) => failed.includes(id));
    expect(new Set(ids)).toEqual(new Set(failed));
    // Failures separated by passes: each is its own alert, each followed by one recovery reply.
    const alerts = posted.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(alerts).toHaveLength(failed.length);
  }, 60_000);
});
