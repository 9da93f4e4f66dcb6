import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { ledgerOf, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Review of the outage's parent and its thread after lost answers, with the quiet period
// (src/model/noise-rules.ts outageStillOpen): what the parent says stays true of the thread.

const MINUTE = 60_000;
type Bot = Awaited<ReturnType<typeof channelWatching>>["bot"];

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const parentNow = async (bot: Bot, parent: StoredMessage) =>
  visibleText((await bot.posted()).find((m) => m.ts === parent.ts) as StoredMessage);
const threadOf = async (bot: Bot, parent: StoredMessage) =>
  (await bot.messages()).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);

describe("an outage's parent after a join reply whose answer was lost", () => {
  it("a join reply Slack stored though its answer was lost, found the next cycle, is counted by the parent", async () => {
    // Lost answers are looked up at once (the next cycle comes at once in this suite's time).
    const { bot, org, tests } = await channelWatching(5, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const outage = (await bot.posted())[0] as StoredMessage;

    // The fourth test fails while the outage is open: Slack stores its join reply, the answer is lost.
    const fourth = tests[3] as { id: number };
    const late = await org.addRun(fourth.id, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));

    const thread = (await threadOf(bot, outage)).map(visibleText).join("\n");
    expect(thread).toContain(`runs/${late.id}`);
    const row = (await ledgerOf(bot, "test", fourth.id)).find((r) => r.id === late.id);
    expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });
    // The thread names four tests: so does the parent, as it does when the answer is not lost.
    expect(await parentNow(bot, outage)).toMatch(/4 tests failing \(3 at once, 1 since\)/);
  });

  it("a test failing again in the quiet period, its join reply's answer lost, is not 'passed again' in the parent", async () => {
    const { bot, org, tests } = await channelWatching(7, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const outage = topLevel(await bot.posted())[0] as StoredMessage;
    expect(await parentNow(bot, outage)).toMatch(/all passed again/);

    // Two minutes later the first test fails again (the quiet period): Slack stores its join
    // reply, the answer is lost; the next cycle finds it.
    const first = tests[0] as { id: number };
    const flare = await org.addRun(first.id, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + 3 * MINUTE));
    await bot.cron(new Date(t0 + 4 * MINUTE));

    const naming = (await bot.messages()).filter((m) => runIdsIn(visibleText(m)).includes(flare.id));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.thread_ts).toBe(outage.ts);
    const row = (await ledgerOf(bot, "test", first.id)).find((r) => r.id === flare.id);
    expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });
    // The thread says the first test is failing again: the parent must not say all passed.
    expect(await parentNow(bot, outage)).not.toMatch(/all passed again/);
  });
});
