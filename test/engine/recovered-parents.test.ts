import { describe, expect, it } from "vitest";
import { type Bot, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { channelWatching } from "../helpers/emulator.ts";

const CHANNEL = "C0ALERTS";

const parents = async (bot: Bot) =>
  (await bot.posted(CHANNEL)).filter((m) => !m.thread_ts || m.thread_ts === m.ts);

/** The first streak's parent as the channel shows it now. */
async function firstParent(bot: Bot): Promise<StoredMessage> {
  return (await parents(bot))[0] as StoredMessage;
}

/**
 * A test with no runs before these: the demo's test 101 has seeded failures that make these
 * histories flaky (src/model/test-classification.ts), which is told in one thread, not parents.
 */
async function freshTest() {
  const { bot, org, tests } = await channelWatching(1);
  return { bot, org, id: (tests[0] as { id: number }).id };
}

describe("a recovered streak's parent says Recovered, also when a new failure follows", () => {
  it("fail, fail, pass, fail in one poll: the first alert is edited to Recovered and a second alert opens", async () => {
    const { bot, org, id } = await freshTest();
    await org.addRun(id, "failed");
    await org.addRun(id, "failed");
    await org.addRun(id, "passed");
    await org.addRun(id, "failed");
    await bot.cron();
    await bot.cron();
    expect(await parents(bot)).toHaveLength(2);
    const first = visibleText(await firstParent(bot));
    expect(first).toMatch(/Recovered/);
    expect(first).not.toMatch(/failing for/i);
  });

  it("fail, fail, pass, fail, fail in one poll: the first alert says Recovered though the second streak's edit came after", async () => {
    const { bot, org, id } = await freshTest();
    for (const status of ["failed", "failed", "passed", "failed", "failed"] as const)
      await org.addRun(id, status);
    await bot.cron();
    await bot.cron();
    const [first, second] = await parents(bot);
    expect(visibleText(first as StoredMessage)).toMatch(/Recovered/);
    expect(visibleText(first as StoredMessage)).not.toMatch(/failing for/i);
    expect(visibleText(second as StoredMessage)).toMatch(/failing for 2 runs/);
  });

  it("fail, fail in one poll, then pass and fail in the next: the first alert is edited to Recovered", async () => {
    const { bot, org, id } = await freshTest();
    await org.addRun(id, "failed");
    await org.addRun(id, "failed");
    await bot.cron();
    await bot.cron();
    expect(visibleText(await firstParent(bot))).toMatch(/failing for 2 runs/);
    await org.addRun(id, "passed");
    await org.addRun(id, "failed");
    await bot.cron();
    await bot.cron();
    expect(await parents(bot)).toHaveLength(2);
    const first = visibleText(await firstParent(bot));
    expect(first).toMatch(/Recovered/);
    expect(first).not.toMatch(/failing for/i);
  });

  it("fail, fail, pass, fail in consecutive polls: the first alert is edited to Recovered", async () => {
    const { bot, org, id } = await freshTest();
    for (const status of ["failed", "failed", "passed", "failed"] as const) {
      await org.addRun(id, status);
      await bot.cron();
      await bot.cron();
    }
    expect(await parents(bot)).toHaveLength(2);
    const first = visibleText(await firstParent(bot));
    expect(first).toMatch(/Recovered/);
    expect(first).not.toMatch(/failing for/i);
  });
});
