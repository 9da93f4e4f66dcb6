import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { cycleLogLine, runPollCycle } from "../../src/cron.ts";
import * as OUTAGE from "../../src/model/outage-thresholds.ts";
import { leaveIntent, ledgerOf, runIdsIn, startWithinOneUtcDay } from "../helpers/cases.ts";
import { channelWatching, subscribedBot } from "../helpers/emulator.ts";

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const MINUTE = 60_000;
const isOutage = (m: StoredMessage) => /at once/.test(visibleText(m));

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
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const all = await bot.messages();
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

  it("three tests that failed and passed again within one look are one outage message, true as posted: failed at once, all passed again", async () => {
    const { bot, org, tests } = await channelWatching(3);
    const failed: number[] = [];
    for (const test of tests) {
      failed.push((await org.addRun(test.id, "failed")).id);
      await org.addRun(test.id, "passed");
    }
    await bot.cron();
    const posts = await bot.alertPosts();
    const outagePosts = posts.filter((c) => /at once/.test(String((c.params as { text?: string }).text)));
    expect(outagePosts).toHaveLength(1);
    // As posted, before any edit: it never said they were failing.
    expect(String((outagePosts[0]?.params as { text?: string } | undefined)?.text)).toMatch(
      /3 tests failed at once — all passed again/,
    );
    const parent = topLevel(await bot.posted()).find(isOutage) as StoredMessage;
    const shown = visibleText(parent);
    for (const id of failed) expect(shown).toContain(`run #${id}`);
    expect(shown.match(/then passed on the next run/g)).toHaveLength(3);
    expect(topLevel(await bot.posted())).toHaveLength(1);
    // The parent already says they passed again: no reply says it a second time.
    await bot.cron(new Date(Date.now() + 60_000));
    expect((await bot.messages()).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts)).toEqual([]);
    for (const [i, test] of tests.entries())
      expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed[i])?.fate).toBe("grouped");
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

describe("an outage still going on is one message", () => {
  const threadOf = async (bot: Awaited<ReturnType<typeof channelWatching>>["bot"], parent: StoredMessage) =>
    (await bot.messages()).filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
  /** A channel watching `watched` tests, the first three failing at once at `t0`: its outage message. */
  const openOutage = async (watched: number) => {
    const { bot, org, tests } = await channelWatching(watched);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    return { bot, org, tests, t0, outage: (await bot.posted())[0] as StoredMessage };
  };

  it("a test that fails while an outage is open joins its thread, and the parent counts it", async () => {
    const { bot, org, tests, t0, outage } = await openOutage(5);
    expect(visibleText(outage)).toMatch(/3 tests failing at once/);

    // A minute later a fourth test fails alone: the same event, not an alert of its own.
    const fourth = tests[3] as { id: number };
    const late = await org.addRun(fourth.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const replies = (await threadOf(bot, outage)).map(visibleText).join("\n");
    expect(replies).toMatch(/Also failed since/);
    expect(replies).toContain(`runs/${late.id}`);
    const parent = (await bot.posted()).find((m) => m.ts === outage.ts) as StoredMessage;
    expect(visibleText(parent)).toMatch(/4 tests failing \(3 at once, 1 since\)/);
    const row = (await ledgerOf(bot, "test", fourth.id)).find((r) => r.id === late.id);
    expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });

    // Its next failure and its recovery reply in the same thread, once each.
    const again = await org.addRun(fourth.id, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await org.addRun(fourth.id, "passed");
    await bot.cron(new Date(t0 + 3 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const thread = (await threadOf(bot, outage)).map(visibleText).join("\n");
    expect(thread).toContain(`runs/${again.id}`);
    expect(thread).toMatch(/passed again/);
  });

  it("a test that failed and passed again within one look joins once: 'then passed on the next run', no second 'passed again' reply", async () => {
    const { bot, org, tests, t0, outage } = await openOutage(5);

    const fourth = tests[3] as { id: number };
    const late = await org.addRun(fourth.id, "failed");
    const pass = await org.addRun(fourth.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const thread = (await threadOf(bot, outage)).map(visibleText);
    const aboutIt = thread.filter((t) => t.includes(`runs/${late.id}`) || t.includes(`runs/${pass.id}`));
    expect(aboutIt).toHaveLength(1);
    expect(aboutIt[0]).toMatch(/then passed on the next run/);
    expect(topLevel(await bot.posted())).toHaveLength(1);
  });

  it("a test that failed, passed and failed again within one look joins the open outage with both failures, never a new alert", async () => {
    const { bot, org, tests, t0, outage } = await openOutage(5);

    const fourth = tests[3] as { id: number };
    const first = await org.addRun(fourth.id, "failed");
    await org.addRun(fourth.id, "passed");
    const again = await org.addRun(fourth.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const thread = (await threadOf(bot, outage)).map(visibleText).join("\n");
    expect(thread).toContain(`runs/${first.id}`);
    expect(thread).toContain(`runs/${again.id}`);
    const ledger = await ledgerOf(bot, "test", fourth.id);
    expect(ledger.find((r) => r.id === again.id)).toMatchObject({ fate: "grouped", ts: outage.ts });
  });

  it("a test of the outage that failed twice more and passed within one look replies once: both failures and its recovery", async () => {
    const { bot, org, tests, t0, outage } = await openOutage(5);

    const named = tests[0] as { id: number };
    const runs = [
      await org.addRun(named.id, "failed"),
      await org.addRun(named.id, "failed"),
      await org.addRun(named.id, "passed"),
    ];
    await bot.cron(new Date(t0 + MINUTE));
    const aboutIt = (await threadOf(bot, outage))
      .map(visibleText)
      .filter((t) => runs.some((run) => t.includes(`runs/${run.id}`)));
    expect(aboutIt).toHaveLength(1);
    for (const run of runs) expect(aboutIt[0]).toContain(`runs/${run.id}`);
    expect(aboutIt[0]).toMatch(/passed again after 3 failed runs/);
    const ledger = await ledgerOf(bot, "test", named.id);
    expect(runs.map((run) => ledger.find((r) => r.id === run.id)?.fate)).toEqual([
      "threaded",
      "threaded",
      "recovered",
    ]);
  });

  it("a failure whose join reply Slack refused with an unknown outcome stays held, the cycle says so, and the next cycle names it once", async () => {
    // Lost answers are looked up at once (in this suite's time, the next cycle comes at once).
    const { bot, org, tests } = await channelWatching(5, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const outage = (await bot.posted())[0] as StoredMessage;

    // Slack answers the join reply with internal_error: it may or may not have stored it.
    const fourth = tests[3] as { id: number };
    const late = await org.addRun(fourth.id, "failed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "internal_error" });
    const config = readConfig(bot.env);
    const first = await runPollCycle(bot.env, config, { now: new Date(t0 + MINUTE) });
    expect(first.held).toBe(1);
    expect(cycleLogLine(first, true)).toContain("1 failures held for an outage decision");
    expect((await threadOf(bot, outage)).map(visibleText).join("\n")).not.toContain(`runs/${late.id}`);

    const second = await runPollCycle(bot.env, config, { now: new Date(t0 + 2 * MINUTE) });
    expect(second.held).toBe(0);
    const naming = (await bot.messages()).filter((m) => visibleText(m).includes(`runs/${late.id}`));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.thread_ts).toBe(outage.ts);
    const row = (await ledgerOf(bot, "test", fourth.id)).find((r) => r.id === late.id);
    expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });
  });

  it("a failure whose own alert Slack stored (its answer lost, found by the outbox) is not named again by the open outage", async () => {
    const { bot, org, tests } = await channelWatching(5, { env: { SLACK_LOOKUP_AFTER_MS: "0" } });
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const outage = (await bot.posted())[0] as StoredMessage;

    // The fourth test's object died after recording its alert's intent; told now, Slack stores
    // the alert and its answer is lost. The outbox finds it in the channel afterwards.
    const fourth = tests[3] as { id: number };
    const late = await org.addRun(fourth.id, "failed");
    await leaveIntent(bot, "test", fourth.id, `run:${late.id}`, new Date(t0));
    await bot.slackFault("chat.postMessage", "lost", 1);
    for (let minute = 1; minute <= 3; minute++) await bot.cron(new Date(t0 + minute * MINUTE));

    const naming = (await bot.messages()).filter((m) => visibleText(m).includes(`runs/${late.id}`));
    expect(naming).toHaveLength(1);
    expect(naming[0]?.thread_ts ?? naming[0]?.ts).not.toBe(outage.ts);
    const row = (await ledgerOf(bot, "test", fourth.id)).find((r) => r.id === late.id);
    expect(row).toMatchObject({ fate: "announced", ts: naming[0]?.ts });
  });

  it("a test that joins an open outage pings its mention: once, in the reply that names it", async () => {
    const { bot, org, tests } = await channelWatching(5);
    const fourth = tests[3] as { id: number };
    await bot.command("/decipher", `subscribe test ${fourth.id} mention:<!subteam^S0ONCALL|@oncall>`);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.pings()).toEqual([]);
    await org.addRun(fourth.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    const outage = topLevel(await bot.posted())[0] as StoredMessage;
    const reply = (await threadOf(bot, outage)).find((m) => /Also failed since/.test(visibleText(m)));
    expect(await bot.pings()).toEqual([
      { target: "<!subteam^S0ONCALL>", channel: "C0ALERTS", ts: reply?.ts, threadTs: outage.ts },
    ]);
  });

  it("three more tests failing while an outage is open are named in its thread, not a second outage message", async () => {
    const { bot, org, tests } = await channelWatching(7);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const later = [];
    for (const test of tests.slice(3, 6)) later.push(await org.addRun(test.id, "failed"));
    await bot.cron(new Date(t0 + MINUTE));
    const parents = topLevel(await bot.posted());
    expect(parents).toHaveLength(1);
    expect(parents.filter(isOutage)).toHaveLength(1);
    const thread = (await threadOf(bot, parents[0] as StoredMessage)).map(visibleText).join("\n");
    for (const run of later) expect(thread).toContain(`runs/${run.id}`);
    expect(visibleText(parents[0] as StoredMessage)).toMatch(/6 tests failing \(3 at once, 3 since\)/);
  });

  it("a failure minutes after an outage recovered joins it, and the parent says it is failing again", async () => {
    const { bot, org, tests } = await channelWatching(7);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const outage = topLevel(await bot.posted())[0] as StoredMessage;
    const parentNow = async () =>
      visibleText((await bot.posted()).find((m) => m.ts === outage.ts) as StoredMessage);
    expect(await parentNow()).toMatch(/all passed again/);

    // Two minutes after the last test passed, one of them fails again: the same incident.
    const first = tests[0] as { id: number };
    const flare = await org.addRun(first.id, "failed");
    await bot.cron(new Date(t0 + 3 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const thread = (await threadOf(bot, outage)).map(visibleText).join("\n");
    expect(thread).toMatch(/Also failed since/);
    expect(thread).toContain(`runs/${flare.id}`);
    expect(await parentNow()).toMatch(/3 tests failing at once — 2 passed again since/);
    expect(await parentNow()).not.toMatch(/all passed again/);
    // Its line says the failing run is a later one, not the run it lists from the start.
    const line = (await parentNow()).split("\n").find((l) => l.includes(`/tests/${first.id}/`)) ?? "";
    expect(line).toMatch(new RegExp(`failed again since: run #${flare.id}, in this thread`));
    const row = (await ledgerOf(bot, "test", first.id)).find((r) => r.id === flare.id);
    expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });

    // Three others failing together then are part of it too, not a second outage message.
    const others = [];
    for (const test of tests.slice(3, 6)) others.push(await org.addRun(test.id, "failed"));
    await bot.cron(new Date(t0 + 4 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const after = (await threadOf(bot, outage)).map(visibleText).join("\n");
    for (const run of others) expect(after).toContain(`runs/${run.id}`);
    expect(await parentNow()).toMatch(/6 tests failing \(3 at once, 3 since\)/);
  });

  it("once every test of an outage passed again and the quiet period is over, the next failures are a new event", async () => {
    const { bot, org, tests } = await channelWatching(7);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const first = topLevel(await bot.posted())[0] as StoredMessage;
    expect(visibleText((await bot.posted()).find((m) => m.ts === first.ts) as StoredMessage)).toMatch(
      /all passed again/,
    );
    // One test fails alone after the quiet period: its own alert. Then three others together: a new outage message.
    const quiet = t0 + MINUTE + OUTAGE.quietMs;
    const alone = await org.addRun((tests[3] as { id: number }).id, "failed");
    await bot.cron(new Date(quiet + MINUTE));
    for (const test of tests.slice(4, 7)) await org.addRun(test.id, "failed");
    await bot.cron(new Date(quiet + 2 * MINUTE));
    const parents = topLevel(await bot.posted());
    expect(parents).toHaveLength(3);
    expect(isOutage(parents[1] as StoredMessage)).toBe(false);
    expect(visibleText(parents[1] as StoredMessage)).toContain(`runs/${alone.id}`);
    expect(visibleText(parents[2] as StoredMessage)).toMatch(/3 tests failing at once/);
    expect((await threadOf(bot, first)).map(visibleText).join("\n")).not.toContain(`runs/${alone.id}`);
  });

  it("a test that passed and fails again while its outage is open is failing again in the parent", async () => {
    const { bot, org, tests } = await channelWatching(4);
    for (const test of tests.slice(0, 3)) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const first = tests[0] as { id: number };
    await org.addRun(first.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const outage = topLevel(await bot.posted())[0] as StoredMessage;
    const parentNow = async () =>
      visibleText((await bot.posted()).find((m) => m.ts === outage.ts) as StoredMessage);
    expect(await parentNow()).toMatch(/1 passed again since/);
    const relapse = await org.addRun(first.id, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    expect(await parentNow()).toMatch(/3 tests failing/);
    expect(await parentNow()).not.toMatch(/passed again/);
    expect((await threadOf(bot, outage)).map(visibleText).join("\n")).toContain(`runs/${relapse.id}`);
  });
});

describe("flaky tests and outages", () => {
  /** Passes with a failure among them: the next failure makes the test flaky by the thresholds. */
  const FLAPPED = ["passed", "failed", "passed", "passed", "passed"] as const;

  it("a test called flaky today keeps its failures in its thread during an outage", async () => {
    const { bot, org, tests } = await channelWatching(4);
    const flappy = tests[0] as { id: number };
    const others = tests.slice(1);
    const t0 = Date.now();
    for (const status of [...FLAPPED, "failed"] as const) await org.addRun(flappy.id, status);
    await bot.cron(new Date(t0));
    const flakyAlert = (await bot.posted())[0] as StoredMessage;
    expect(visibleText(flakyAlert)).toMatch(/is flaky/);
    expect(visibleText(flakyAlert)).toMatch(/this thread holds its failures until /i);

    // Minutes later all four fail in one cycle: three make an outage, the flaky one is not in it.
    const again = await org.addRun(flappy.id, "failed");
    const outageRuns = [];
    for (const test of others) outageRuns.push(await org.addRun(test.id, "failed"));
    await bot.cron(new Date(t0 + 3 * 60_000));
    const parents = topLevel(await bot.posted());
    expect(parents).toHaveLength(2);
    const outage = parents[1] as StoredMessage;
    expect(visibleText(outage)).toMatch(/3 tests failing at once/);
    for (const run of outageRuns) expect(visibleText(outage)).toContain(`runs/${run.id}`);
    expect(visibleText(outage)).not.toContain(`runs/${again.id}`);
    const thread = (await bot.messages()).filter(
      (m) => m.thread_ts === flakyAlert.ts && m.ts !== flakyAlert.ts,
    );
    expect(thread.map(visibleText).join("\n")).toContain(`runs/${again.id}`);
    // Told once, in its thread: one fate in its ledger.
    const row = (await ledgerOf(bot, "test", flappy.id)).find((r) => r.id === again.id);
    expect(row).toMatchObject({ fate: "threaded", parentTs: flakyAlert.ts });
    const mentions = (await bot.messages()).filter((m) => runIdsIn(visibleText(m)).includes(again.id));
    expect(mentions).toHaveLength(1);
  });

  it("tests that only now look flaky, failing together, are one outage message", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const tests = [];
    for (let i = 0; i < 3; i++) tests.push(await org.addTest(`Flappy step ${i + 1}`));
    // Their history is in before the channel subscribes: it is the baseline, nothing alerts.
    for (const test of tests) for (const status of FLAPPED) await org.addRun(test.id, status);
    for (const test of tests) await bot.command("/decipher", `subscribe test ${test.id}`);
    await bot.cron();
    expect(await bot.posted()).toHaveLength(0);
    const runs = [];
    for (const test of tests) runs.push(await org.addRun(test.id, "failed"));
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    const text = visibleText(posts[0] as StoredMessage);
    expect(text).toMatch(/3 tests failing at once/);
    expect(text).not.toMatch(/is flaky/);
    for (const run of runs) expect(text).toContain(`runs/${run.id}`);
  });
});

describe("the noisy scenario's outages", () => {
  it("its first round is one outage message: the flaps minutes after it recovered join its thread", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101");
    for (const id of [102, 103]) await bot.command("/decipher", `subscribe test ${id}`);
    await org.scenario("noisy");
    const t0 = startWithinOneUtcDay(90 * MINUTE);
    // As `SIMULATE=noisy npm start` runs it: a tick every 20 s, each test polled every minute.
    // Ticks 8–10 fail all three (the outage); ticks 12–15 flap two or three of them, about a
    // minute after all passed again; the pattern repeats every 16 ticks.
    const minute = async (n: number) => {
      for (let i = 0; i < 3; i++) await org.tick();
      await bot.cron(new Date(t0 + n * MINUTE));
    };
    for (let n = 1; n <= 12; n++) await minute(n);
    const parents = topLevel(await bot.posted());
    const outages = parents.filter(isOutage);
    expect(outages).toHaveLength(1);
    const outage = outages[0] as StoredMessage;
    const thread = (await bot.messages()).filter((m) => m.thread_ts === outage.ts && m.ts !== outage.ts);
    const joined = thread.filter((m) => /Also failed since/.test(visibleText(m)));
    expect(joined.length).toBeGreaterThan(0);
    // Each run a join names is that run's one fate: grouped under the outage, in no other message.
    const ids = joined.flatMap((m) => runIdsIn(visibleText(m)));
    for (const id of ids) {
      const mentions = parents.filter((m) => runIdsIn(visibleText(m)).includes(id));
      expect(mentions).toEqual([]);
    }
    for (const test of [101, 102, 103]) {
      const rows = await ledgerOf(bot, "test", test);
      for (const row of rows.filter((r) => ids.includes(r.id)))
        expect(row).toMatchObject({ fate: "grouped", ts: outage.ts });
    }
  }, 120_000);

  it("once the outage's hour is up, the flapping tests are called flaky, with no second outage message", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101");
    for (const id of [102, 103]) await bot.command("/decipher", `subscribe test ${id}`);
    await org.scenario("noisy");
    const t0 = startWithinOneUtcDay(90 * MINUTE);
    const minute = async (n: number) => {
      for (let i = 0; i < 3; i++) await org.tick();
      await bot.cron(new Date(t0 + n * MINUTE));
    };
    for (let n = 1; n <= 80; n++) await minute(n);
    const parents = topLevel(await bot.posted());
    expect(parents.filter(isOutage)).toHaveLength(1);
    const flaky = parents.filter((m) => /is flaky/.test(visibleText(m)));
    for (const name of ["Checkout flow", "Login with SSO", "Search &amp; filters"])
      expect(flaky.filter((m) => visibleText(m).includes(`${name} is flaky`))).toHaveLength(1);
  }, 300_000);
});

describe("the sandbox's default scenario", () => {
  it.each([
    ["after every tick", 1],
    ["once a minute, three ticks at a time (an idle object's pace)", 3],
  ])(
    "its demo tests alert one by one, never as an outage, polled %s: only two of the three ever fail",
    async (_, every) => {
      const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
      for (const command of ["subscribe test 102", "subscribe test 103", "subscribe collection 501"])
        await bot.command("/decipher", command);
      await org.scenario("cycle");
      const t0 = startWithinOneUtcDay(90 * MINUTE);
      // Ten minutes of `npm start`: a tick every 20 s. Only two of the three tests ever fail
      // (below the outage rule however many ticks a poll reads), and once the bot called them
      // flaky each keeps to its thread; an outage is what SIMULATE=noisy shows.
      for (let n = 1; n <= 30; n++) {
        await org.tick();
        if (n % every === 0) await bot.cron(new Date(t0 + n * 20_000));
      }
      const parents = topLevel(await bot.posted());
      expect(parents.filter(isOutage)).toEqual([]);
      const flaky = parents.filter((m) => /is flaky/.test(visibleText(m))).map(visibleText);
      expect(
        flaky.map((text) => /(Checkout flow|Search &amp; filters) is flaky/.exec(text)?.[1]).sort(),
      ).toEqual(["Checkout flow", "Search &amp; filters"]);
    },
    120_000,
  );
});
