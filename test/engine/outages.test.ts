import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { channelWatching, subscribedBot } from "../helpers/emulator.ts";

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const isOutage = (m: StoredMessage) => /failing at once/.test(visibleText(m));

describe("one message per outage", () => {
  it("a single failing test alerts on its own", async () => {
    const { bot, org, tests } = await channelWatching(5);
    await org.addRun((tests[0] as { id: number }).id, "failed");
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(isOutage(posts[0] as StoredMessage)).toBe(false);
  });

  it("three tests failing in one cycle are one outage message naming each, with no per-test alerts", async () => {
    const { bot, org, tests } = await channelWatching(5);
    const runs = [];
    for (const test of tests.slice(0, 3)) runs.push(await org.addRun(test.id, "failed"));
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    const text = visibleText(posts[0] as StoredMessage);
    expect(text).toMatch(/3 tests failing at once/);
    for (const run of runs) expect(text).toContain(`runs/${run.id}`);
  });

  it("ten tests failing at once are one message; later failures and recoveries reply in its thread", async () => {
    const { bot, org, tests } = await channelWatching(10);
    for (const test of tests) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const outage = (await bot.posted())[0] as StoredMessage;

    const again = await org.addRun((tests[0] as { id: number }).id, "failed");
    const passed = await org.addRun((tests[1] as { id: number }).id, "passed");
    await bot.cron(new Date(t0 + 60_000));
    const all = await bot.messages();
    expect(topLevel(all.filter((m) => m.bot_id && !m.ephemeral))).toHaveLength(1);
    const thread = all.filter((m) => m.thread_ts === outage.ts && m.ts !== outage.ts);
    const threadText = thread.map(visibleText).join("\n");
    expect(threadText).toContain(`runs/${again.id}`);
    expect(threadText).toMatch(/passed again/i);
    expect(threadText).toContain(`runs/${passed.id}`);
    // The outage message itself is not rewritten by one test's news.
    expect(visibleText((await bot.messages()).find((m) => m.ts === outage.ts) as StoredMessage)).toMatch(
      /10 tests failing at once/,
    );
  });

  it("two of a channel's two tests failing together (80 %) are one outage message", async () => {
    const { bot, org, tests } = await channelWatching(2);
    for (const test of tests) await org.addRun(test.id, "failed");
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(isOutage(posts[0] as StoredMessage)).toBe(true);
  });

  it("two of five failing together alert one by one", async () => {
    const { bot, org, tests } = await channelWatching(5);
    for (const test of tests.slice(0, 2)) await org.addRun(test.id, "failed");
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(2);
    expect(posts.some(isOutage)).toBe(false);
  });

  it("overlapping crons post the outage message once", async () => {
    const { bot, org, tests } = await channelWatching(4);
    for (const test of tests) await org.addRun(test.id, "failed");
    const at = new Date();
    await Promise.all([bot.cron(at), bot.cron(at), bot.cron(at)]);
    await bot.cron(new Date(at.getTime() + 60_000));
    expect((await bot.posted()).filter(isOutage)).toHaveLength(1);
    expect(await bot.posted()).toHaveLength(1);
  });
});

describe("the noisy scenario's outage", () => {
  it("three flaky tests failing together are one outage message, not flaky-thread replies and alerts", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101");
    for (const id of [102, 103]) await bot.command("/decipher", `subscribe test ${id}`);
    await org.scenario("noisy");
    const t0 = Date.now();
    // Its steps 0–7 (each test flaps; 101 and 102 get a flaky thread), then 8–10: all fail.
    // One tick per minute, as each object's own clock would see them.
    let minute = 0;
    for (; minute < 8; minute++) {
      await org.tick();
      await bot.cron(new Date(t0 + minute * 60_000));
    }
    const before = (await bot.posted()).length;
    expect(topLevel(await bot.posted()).some((m) => /is flaky/.test(visibleText(m)))).toBe(true);
    await org.tick();
    await bot.cron(new Date(t0 + minute * 60_000));
    const outagePosts = (await bot.posted()).slice(before);
    expect(outagePosts).toHaveLength(1);
    expect(visibleText(outagePosts[0] as StoredMessage)).toMatch(/3 tests failing at once/);
  });
});
