import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { cronWith, ledgerOf, objectState, runIdsIn, until } from "../helpers/cases.ts";
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

describe("objects aborted while an outage's parent is edited for a recovery", () => {
  it("a test whose recovery was posted when its object was aborted alerts on its own when it fails after the outage is over", async () => {
    const { bot, org, tests } = await channelWatching(5, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const [first, second, third] = tests.slice(0, 3) as unknown as [
      { id: number },
      { id: number },
      { id: number },
    ];
    for (const test of [first, second, third]) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const outage = topLevel(await bot.posted())[0] as StoredMessage;

    // The first test passes: its "passed again" reply is posted, then the channel's edit of the
    // parent hangs, and every object is aborted meanwhile (a deploy, an isolate restart).
    await org.addRun(first.id, "passed");
    const timeout = { SLACK_TIMEOUT_MS: "3000" };
    await bot.slackFault("chat.update", "hang", 1, { delayMs: 5_000 });
    const cycle = cronWith(bot, timeout, new Date(t0 + MINUTE)).catch(() => {});
    await until(
      async () => (await bot.slackCalls()).some((c) => c.method === "chat.update"),
      10_000,
      "the parent's edit",
    );
    await abortAllDurableObjects();
    await cycle;
    expect((await threadOf(bot, outage)).map(visibleText).join("\n")).toMatch(/passed again/);

    // The two others pass; the outage's quiet period ends.
    for (const test of [second, third]) await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + 3 * MINUTE));
    await bot.cron(new Date(t0 + 4 * MINUTE));
    expect(await parentNow(bot, outage)).toMatch(/all passed again/);

    // Twenty minutes later the first test fails: a new event, its own alert, as for any other test.
    const relapse = await org.addRun(first.id, "failed");
    await bot.cron(new Date(t0 + 20 * MINUTE));
    const naming = (await bot.messages()).filter((m) => runIdsIn(visibleText(m)).includes(relapse.id));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.thread_ts ?? naming[0]?.ts).not.toBe(outage.ts);
    const row = (await ledgerOf(bot, "test", first.id)).find((r) => r.id === relapse.id);
    expect(row).toMatchObject({ fate: "announced" });
  }, 60_000);
});

describe("an object aborted between two posts of one poll", () => {
  it("a test's second failure, its reply hanging when the object is aborted, stays in its alert's thread, and the alert turns green", async () => {
    const { bot, org, tests } = await channelWatching(1, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const test = tests[0] as { id: number };
    const first = await org.addRun(test.id, "failed");
    const second = await org.addRun(test.id, "failed");
    const timeout = { SLACK_TIMEOUT_MS: "3000" };
    const postsTried = async () =>
      (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage").length;
    // The alert is answered slowly (within the timeout); the reply after it hangs, and every
    // object is aborted meanwhile.
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_000 });
    const t0 = Date.now();
    const cycle = cronWith(bot, timeout, new Date(t0)).catch(() => {});
    await until(async () => (await postsTried()) === 1, 10_000, "the alert");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 6_000 });
    await until(async () => (await postsTried()) === 2, 10_000, "the reply");
    await abortAllDurableObjects();
    await cycle;

    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + 3 * MINUTE));

    const alert = topLevel(await bot.posted())[0] as StoredMessage;
    expect(runIdsIn(visibleText(alert))).toContain(first.id);
    const naming = (await bot.messages()).filter((m) => runIdsIn(visibleText(m)).includes(second.id));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.thread_ts).toBe(alert.ts);
    // The test passed: its alert's thread says so, and the alert no longer says it is failing.
    expect((await threadOf(bot, alert)).map(visibleText).join("\n")).toMatch(
      /passed again after 2 failed runs/,
    );
    expect(await parentNow(bot, alert)).toMatch(/Recovered/);
    // Its ledger says it was told as a reply in the alert's thread.
    const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === second.id);
    expect(row).toMatchObject({ fate: "threaded", parentTs: alert.ts });
  }, 60_000);
});

describe("an outage message sent as text alone, its answer lost", () => {
  it("an outage message Slack took only as text, found after its answer was lost, leaves no run grouped unnamed", async () => {
    const { bot, org, tests } = await channelWatching(3, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const runs: number[] = [];
    for (const test of tests) runs.push((await org.addRun(test.id, "failed")).id);
    // Slack refuses the outage message's blocks; its text alone is stored, and that answer is lost.
    await bot.slackFault("chat.postMessage", "error", 1, { error: "invalid_blocks" });
    await bot.slackFault("chat.postMessage", "lost", 1);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const messages = await bot.messages();
    for (const [i, test] of tests.entries()) {
      const runId = runs[i] as number;
      // Each run is named by one message in the channel, whatever its ledger says of it.
      expect(messages.filter((m) => runIdsIn(visibleText(m)).includes(runId))).toHaveLength(1);
      const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === runId);
      expect(row?.fate).toMatch(/announced|threaded|grouped/);
    }
  });
});

describe("an outage message whose lookup fails for longer than a failure may wait", () => {
  it("its runs wait, counted overdue, and are named once when the lookup finds the message", async () => {
    const { bot, org, tests } = await channelWatching(3, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    const runs: number[] = [];
    for (const test of tests) runs.push((await org.addRun(test.id, "failed")).id);
    // Slack stores the outage message and the answer is lost; its history reads then fail for 8 minutes.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.slackFault("conversations.history", "500", 100);
    const t0 = Date.now();
    for (let minute = 0; minute <= 8; minute++) await bot.cron(new Date(t0 + minute * MINUTE));
    // Meanwhile nothing names them twice, and each is counted overdue (status, Home, /health).
    for (const test of tests) expect((await objectState(bot, "test", test.id))?.overdue).toBe(1);
    expect((await bot.posted()).filter((m) => /at once/.test(m.text ?? ""))).toHaveLength(1);
    await bot.clearSlackFaults();
    for (let minute = 9; minute <= 11; minute++) await bot.cron(new Date(t0 + minute * MINUTE));

    const messages = await bot.messages();
    for (const [i, test] of tests.entries()) {
      const runId = runs[i] as number;
      expect(messages.filter((m) => runIdsIn(visibleText(m)).includes(runId))).toHaveLength(1);
      const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === runId);
      expect(row?.fate).toBe("grouped");
    }
  }, 60_000);
});
