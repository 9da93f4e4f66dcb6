import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { ledgerOf, outageLeftMidPost, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Review of the ChannelObject's outage path: a run named by an outage message the channel
// holds (or may hold: its answer was lost) is never also announced alone.

const MINUTE = 60_000;

const mentions = (messages: StoredMessage[], runId: number) =>
  messages.filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;

describe("outage messages and the runs they name", () => {
  it("an outage message whose answer was lost: when fewer tests are held next cycle, its runs are not announced again alone", async () => {
    // The channel object runs on the real clock: look lost answers up at once.
    const { bot, org, tests } = await channelWatching(4, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const runs: number[] = [];
    for (const test of tests.slice(0, 3)) runs.push((await org.addRun(test.id, "failed")).id);
    const t0 = Date.now();
    // Slack stores the outage message naming the three runs; the answer is lost.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    expect((await bot.posted()).filter((m) => /failing at once/.test(visibleText(m)))).toHaveLength(1);
    // The third test is rerun and passes: two held failures of four tests are no outage.
    await org.setRun(runs[2] as number, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(mentions(posted, runs[0] as number)).toBe(1);
    expect(mentions(posted, runs[1] as number)).toBe(1);
  });

  it("a failure added to an outage's thread whose answer was lost is not also announced alone", async () => {
    // The channel object runs on the real clock: look lost answers up at once.
    const { bot, org, tests } = await channelWatching(4, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const runs: number[] = [];
    for (const test of tests.slice(0, 3)) runs.push((await org.addRun(test.id, "failed")).id);
    const t0 = Date.now();
    const { ts: stored } = await outageLeftMidPost(
      bot,
      tests.slice(0, 3),
      runs,
      new Date(t0 - 2 * MINUTE),
      4,
    );
    const fourth = await org.addRun((tests[3] as { id: number }).id, "failed");
    // The "Also failed since" reply naming the fourth run reaches Slack; its answer does not.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(mentions(posted, fourth.id)).toBe(1);
    const row = (await ledgerOf(bot, "test", (tests[3] as { id: number }).id)).find(
      (r) => r.id === fourth.id,
    );
    expect(row).toMatchObject({ fate: "grouped", ts: stored });
  });
  it("an outage message whose tests all passed again no longer says they are failing", async () => {
    const { bot, org, tests } = await channelWatching(3);
    for (const test of tests) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const isOutage = (m: StoredMessage) => !m.thread_ts || m.thread_ts === m.ts;
    const outage = (await bot.posted()).filter(isOutage);
    expect(outage.map((m) => visibleText(m))).toEqual([expect.stringMatching(/3 tests failing at once/)]);
    for (const test of tests) await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const parent = (await bot.posted()).find((m) => m.ts === outage[0]?.ts) as StoredMessage;
    expect(visibleText(parent)).not.toMatch(/3 tests failing at once/);
  });
  it("an outage message Slack takes only as text still names every run it groups", async () => {
    const { bot, org, tests } = await channelWatching(3);
    const runs: number[] = [];
    for (const test of tests) runs.push((await org.addRun(test.id, "failed")).id);
    // Slack refuses the outage message's blocks once; the text goes out alone.
    await bot.slackFault("chat.postMessage", "error", 1, { error: "invalid_blocks" });
    await bot.cron();
    const posted = await bot.posted();
    for (const [i, test] of tests.entries()) {
      const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === runs[i]);
      expect(row?.fate).toMatch(/announced|threaded|grouped/);
      expect(mentions(posted, runs[i] as number)).toBe(1);
    }
  });
});
