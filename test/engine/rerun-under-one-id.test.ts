import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { health, ledgerOf, objectState, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Issue #34, case 5: Decipher reruns a failed run under the same run id (failed → running →
// passed). The run's latest status is what the channel is told and what streaks count.

const MINUTE = 60_000;

async function failedThenRerun() {
  const { bot, org, tests } = await channelWatching(1);
  const test = tests[0] as { id: number; name: string };
  const t0 = Date.now();
  const at = (m: number) => new Date(t0 + m * MINUTE);
  const failed = await org.addRun(test.id, "failed");
  await bot.cron(at(0));
  await org.setRun(failed.id, "running");
  await bot.cron(at(1));
  await org.setRun(failed.id, "passed");
  await bot.cron(at(2));
  return { bot, org, test, failed, at };
}

describe("a failed run rerun under the same id", () => {
  it("that passes is told as passed, and the alert no longer says failing", async () => {
    const { bot, test, failed } = await failedThenRerun();
    const posted = await bot.posted();
    const alert = posted.find((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(alert && runIdsIn(visibleText(alert))).toContain(failed.id);
    // The channel hears it passed: in the alert's thread, or the alert itself turned green.
    expect(
      posted.some((m) => new RegExp(`passed when run #${failed.id} was rerun`).test(visibleText(m))),
    ).toBe(true);
    expect(visibleText(alert as { text?: string })).not.toMatch(/is failing/i);
    // The alert, turned green, says how it passed: the failed run itself passed when rerun,
    // not a later run "after 1 failed run" (the run it names is the one that failed).
    expect(visibleText(alert as { text?: string })).toMatch(
      new RegExp(`passed when run #${failed.id} was rerun`),
    );
    expect(visibleText(alert as { text?: string })).not.toMatch(/passed again after/);
    expect((await objectState<TestSubscription>(bot, "test", test.id))?.streak ?? null).toBeNull();
    expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed.id)?.status).toBe("passed");
  });

  it("then a new failure is a new alert that counts from one, not '2 runs in a row'", async () => {
    const { bot, org, test, at } = await failedThenRerun();
    const next = await org.addRun(test.id, "failed");
    await bot.cron(at(3));
    const posted = await bot.posted();
    const told = posted.filter((m) => runIdsIn(visibleText(m)).includes(next.id));
    expect(told).toHaveLength(1);
    expect(visibleText(told[0] as { text?: string })).not.toMatch(/2 runs in a row|failing for 2/);
    // A new top-level alert, not a reply in the first one's thread.
    expect(told[0]?.thread_ts ?? told[0]?.ts).toBe(told[0]?.ts);
    expect((await health(bot)).overdue).toBe(0);
  });

  it("that fails again is told once, not a second time", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const t0 = Date.now();
    const failed = await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0));
    await org.setRun(failed.id, "running");
    await bot.cron(new Date(t0 + MINUTE));
    await org.setRun(failed.id, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const naming = (await bot.posted()).filter((m) => runIdsIn(visibleText(m)).includes(failed.id));
    expect(naming).toHaveLength(1);
  });

  it("that passes, then is rerun again and fails, is not told a second time, and keeps a fate", async () => {
    const { bot, org, test, failed, at } = await failedThenRerun();
    await org.setRun(failed.id, "failed");
    await bot.cron(at(3));
    await bot.cron(at(4));
    // The alert, and any reply but the one that told the rerun's pass.
    const naming = (await bot.posted()).filter(
      (m) =>
        runIdsIn(visibleText(m)).includes(failed.id) &&
        (!m.thread_ts || m.thread_ts === m.ts || !/rerun/.test(visibleText(m))),
    );
    expect(naming).toHaveLength(1);
    const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed.id);
    expect(row?.status).toBe("failed");
    expect(row?.fate).toMatch(/announced|threaded/);
    expect((await health(bot)).overdue).toBe(0);
  });
});
