import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Bot, type StoredMessage, standIn, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { WeeklyStore } from "../../src/store/weekly-store.ts";
import { health, ledgerOf, runIdsIn, statusText, subscriptionStub } from "../helpers/cases.ts";
import { channelWatching, subscribedBot } from "../helpers/emulator.ts";

// Review of the bot in big channels: many subscriptions, many failures in one poll, and Slack
// saying "not now" (429 with a long Retry-After) in the middle of it.

const MINUTE = 60_000;
const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const isOutage = (m: StoredMessage) => /at once/.test(visibleText(m));

/** Run ids named by the bot's messages in the channel, one entry per message that names it. */
async function namings(bot: Bot): Promise<number[]> {
  return (await bot.posted()).flatMap((m) => [...new Set(runIdsIn(JSON.stringify(m.blocks ?? [])))]);
}

describe("an outage while Slack says 'not now'", () => {
  it("an outage message Slack rate-limits for a minute goes out the next cycle; none of its failures alerts alone", async () => {
    const { bot, org, tests } = await channelWatching(12);
    const failing = tests.slice(0, 10);
    const runs: number[] = [];
    for (const test of failing) runs.push((await org.addRun(test.id, "failed")).id);
    // The outage message is refused with 429 and a Retry-After of a minute: nothing was posted.
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 60 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect((await bot.posted()).map((m) => m.text)).toEqual([]);

    await bot.cron(new Date(t0 + MINUTE));
    const posted = await bot.posted();
    expect(topLevel(posted)).toHaveLength(1);
    expect(isOutage(posted[0] as StoredMessage)).toBe(true);
    expect((await namings(bot)).sort()).toEqual([...runs].sort());
    for (const [i, test] of failing.entries())
      expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === runs[i])?.fate).toBe("grouped");
    expect((await health(bot)).overdue).toBe(0);
  });

  it("an outage's thread part Slack rate-limits names its tests in the thread the next cycle, never alone", async () => {
    // Names and summaries of `&` (each escaped to `&amp;`): two tests a section, so 42 failing
    // tests are a parent naming 40 and one thread part naming the other 2.
    const { bot, org, tests } = await channelWatching(45, {
      names: (i) => `${String(i).padStart(2, "0")} ${"&".repeat(297)}`,
    });
    const failing = tests.slice(0, 42);
    const runs: number[] = [];
    for (const test of failing)
      runs.push((await org.addRun(test.id, "failed", { oneLineSummary: "&".repeat(200) })).id);
    // Slack's per-channel limit: the parent goes out, the part after it waits a minute.
    await standIn.call("POST", "/rate-limit", { botToken: bot.botToken, perSecond: 1 / 60, burst: 0 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const parent = (await bot.posted())[0] as StoredMessage;
    expect(visibleText(parent)).toMatch(/The other 2 are named in this thread/);
    expect((await bot.posted()).map((m) => m.text)).toHaveLength(1);

    await standIn.call("POST", "/rate-limit", { botToken: bot.botToken, enabled: false });
    await bot.cron(new Date(t0 + MINUTE));
    const posted = await bot.posted();
    expect(topLevel(posted).map((m) => m.text)).toEqual([parent.text]);
    expect(posted.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts)).toHaveLength(1);
    expect((await namings(bot)).sort()).toEqual([...runs].sort());
    for (const [i, test] of failing.entries())
      expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === runs[i])).toMatchObject({
        fate: "grouped",
        ts: parent.ts,
      });
  });

  it("the thread parts after one Slack rate-limits name their tests in the thread the next cycle, never alone", async () => {
    // Two tests a section (see above): 82 failing tests are a parent naming 40, then parts of 40 and 2.
    const { bot, org, tests } = await channelWatching(85, {
      names: (i) => `${String(i).padStart(2, "0")} ${"&".repeat(297)}`,
    });
    const failing = tests.slice(0, 82);
    const runs: number[] = [];
    for (const test of failing)
      runs.push((await org.addRun(test.id, "failed", { oneLineSummary: "&".repeat(200) })).id);
    await standIn.call("POST", "/rate-limit", { botToken: bot.botToken, perSecond: 1 / 60, burst: 0 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const parent = (await bot.posted())[0] as StoredMessage;
    expect(visibleText(parent)).toMatch(/The other 42 are named in this thread/);

    await standIn.call("POST", "/rate-limit", { botToken: bot.botToken, enabled: false });
    await bot.cron(new Date(t0 + MINUTE));
    expect(topLevel(await bot.posted()).map((m) => m.text)).toEqual([parent.text]);
    expect((await namings(bot)).sort()).toEqual([...runs].sort());
    for (const [i, test] of failing.entries())
      expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === runs[i])?.ts).toBe(parent.ts);
  });
});

describe("Slack's Retry-After is honoured", () => {
  const postCalls = async (bot: Bot) => (await bot.alertPosts()).length;

  it("a test's alert Slack rate-limits for two minutes is not posted again before they pass, then once", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const run = await org.addRun((tests[0] as { id: number }).id, "failed");
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 120 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await postCalls(bot)).toBe(1);
    await bot.cron(new Date(t0 + MINUTE));
    expect(await postCalls(bot)).toBe(1);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await postCalls(bot)).toBe(2);
    expect((await namings(bot)).filter((id) => id === run.id)).toHaveLength(1);
  });

  it("an outage message Slack rate-limits for two minutes is not posted again before they pass, then once", async () => {
    const { bot, org, tests } = await channelWatching(4);
    const runs: number[] = [];
    for (const test of tests) runs.push((await org.addRun(test.id, "failed")).id);
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 120 });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    expect(await postCalls(bot)).toBe(1);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await postCalls(bot)).toBe(2);
    expect(topLevel(await bot.posted()).filter(isOutage)).toHaveLength(1);
    expect((await namings(bot)).sort()).toEqual([...runs].sort());
  });
});

describe("edits Slack rate-limits are owed, not dropped", () => {
  it("a test's alert whose recovery edit Slack rate-limits turns green at the next poll", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const alert = (await bot.posted())[0] as StoredMessage;
    expect(alert.text).toMatch(/^Test failed/);
    await org.addRun(test.id, "passed");
    // Slack's per-method limit (chat.update is Tier 3): the edit is refused for a minute.
    await bot.slackFault("chat.update", "429", 1, { retryAfter: 60 });
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const parent = (await bot.posted()).find((m) => m.ts === alert.ts) as StoredMessage;
    expect(parent.text).toMatch(/^Recovered/);
  });

  it("an outage message whose last recovery edit Slack rate-limits says all passed again at the next poll", async () => {
    const { bot, org, tests } = await channelWatching(3);
    for (const test of tests) await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const outage = (await bot.posted())[0] as StoredMessage;
    expect(outage.text).toMatch(/3 tests failing at once/);
    for (const test of tests) await org.addRun(test.id, "passed");
    await bot.slackFault("chat.update", "429", 3, { retryAfter: 60 });
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const parent = (await bot.posted()).find((m) => m.ts === outage.ts) as StoredMessage;
    expect(parent.text).toMatch(/3 tests failed at once — all passed again/);
  });

  it("a collection alert whose count edit Slack rate-limits shows the new count at the next poll", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const t0 = Date.now();
    await org.grow(501, 5);
    await bot.cron(new Date(t0));
    const alert = (await bot.posted())[0] as StoredMessage;
    // Later growth replies in the thread; the card's count edit is refused for a minute.
    const grown = await org.grow(501, 5);
    const count = grown.collection.sessionCount.toLocaleString("en-US");
    await bot.slackFault("chat.update", "429", 1, { retryAfter: 60 });
    await bot.cron(new Date(t0 + MINUTE));
    const card = async () => (await bot.posted()).find((m) => m.ts === alert.ts) as StoredMessage;
    expect(visibleText(await card())).not.toContain(`${count} sessions`);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(visibleText(await card())).toContain(`${count} sessions`);
    expect((await bot.posted()).filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts)).toHaveLength(1);
  });
});
describe("the weekly report of a big channel", () => {
  it("goes out for 60 tests, each with its week's figures, none 'did not answer'", {
    timeout: 120_000,
  }, async () => {
    const { bot, org, tests } = await channelWatching(60);
    for (const test of tests) await org.addRun(test.id, "passed");
    await bot.command("/decipher", "weekly mon 09:00 UTC");
    const schedule = await new WeeklyStore(env.STATE).get("C0ALERTS");
    const due = Date.parse(schedule?.nextDueAt ?? "");
    for (let m = 0; m < 3; m++) await bot.cron(new Date(due + 5_000 + m * MINUTE));
    const reports = (await bot.posted()).filter((m) => /Weekly Decipher report/.test(m.text ?? ""));
    expect(reports.map((m) => m.text)).toHaveLength(1);
    const text = visibleText(reports[0] as StoredMessage);
    expect(text).not.toMatch(/did not answer/);
    expect(text).toMatch(/across 60 tests/);
  });
});

describe("the daily digest of a big channel", () => {
  it("goes out for 20 collections that each gained 200 sessions today, naming every one", {
    timeout: 120_000,
  }, async () => {
    const { bot, org } = await channelWatching(2);
    const collections: number[] = [];
    for (let i = 0; i < 20; i++)
      collections.push((await org.addCollection(`Checkout error ${i + 1}`, `/step/${i + 1}`)).id);
    for (const id of collections) await bot.command("/decipher", `subscribe collection ${id}`);
    for (const id of collections) await org.grow(id, 200);
    await bot.command("/decipher", "digest 09:00 UTC");
    const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
    const due = Date.parse(schedule?.nextDueAt ?? "");
    for (let m = 0; m < 3; m++) await bot.cron(new Date(due + 5_000 + m * MINUTE));
    const digests = (await bot.posted()).filter((m) => /Daily Decipher digest/.test(m.text ?? ""));
    expect(digests.map((m) => m.text)).toHaveLength(1);
    const text = visibleText(digests[0] as StoredMessage);
    for (const id of collections) expect(text).toContain(`issue-collections/${id}|`);
  });
});

describe("reports name every subscription, read or not", () => {
  it("a digest names the collections Decipher did not answer for, never 'no issue collections watched'", async () => {
    const { bot, org } = await channelWatching(1);
    await bot.command("/decipher", "subscribe collection 501");
    await bot.command("/decipher", "subscribe collection 502");
    await bot.command("/decipher", "digest 09:00 UTC");
    const due = Date.parse((await new DigestStore(env.STATE).get("C0ALERTS"))?.nextDueAt ?? "");
    await org.fault("collectionSessions", "500", 100);
    await bot.cron(new Date(due + 5_000));
    const digest = (await bot.posted()).find((m) => /Daily Decipher digest/.test(m.text ?? ""));
    const text = visibleText(digest as StoredMessage);
    expect(text).not.toMatch(/No issue collections watched/);
    expect(text).toMatch(/2 issue collections/);
    for (const id of [501, 502]) expect(text).toContain(`issue-collections/${id}|`);
    expect(text).toMatch(/Decipher did not answer for this collection/);
  });

  it("a weekly report names the collections Decipher did not answer for", async () => {
    const { bot, org } = await channelWatching(1);
    await bot.command("/decipher", "subscribe collection 501");
    await bot.command("/decipher", "subscribe collection 502");
    await bot.command("/decipher", "weekly mon 09:00 UTC");
    const due = Date.parse((await new WeeklyStore(env.STATE).get("C0ALERTS"))?.nextDueAt ?? "");
    await org.fault("collectionSessions", "500", 100);
    await bot.cron(new Date(due + 5_000));
    const report = (await bot.posted()).find((m) => /Weekly Decipher report/.test(m.text ?? ""));
    const text = visibleText(report as StoredMessage);
    expect(text).not.toMatch(/No issue collections watched/);
    for (const id of [501, 502]) expect(text).toContain(`issue-collections/${id}|`);
    expect(text).toMatch(/Decipher did not answer for this collection/);
  });
});

describe("status after an outage", () => {
  it("a test named by an outage message, failed and passed again within one look, shows that message as its last alert", async () => {
    const { bot, org, tests } = await channelWatching(3);
    for (const test of tests) {
      await org.addRun(test.id, "failed");
      await org.addRun(test.id, "passed");
    }
    await bot.cron();
    const outage = topLevel(await bot.posted()).find(isOutage) as StoredMessage;
    expect(outage.text).toMatch(/3 tests failed at once — all passed again/);
    const status = await statusText(bot);
    expect(status).not.toMatch(/no alert yet/);
    expect(status.match(/last alert <!date\^(\d+)\^/g)).toHaveLength(3);
  });
});

describe("a day's KV writes used up", () => {
  // Workers KV on the Free plan takes 1,000 writes a day; a channel of 150 subscriptions can use
  // them up in an outage or two (each subscription's readable copy is written when it changes).
  it("a test's alert is still in status and the poll still reports, when its KV copy cannot be written", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    await bot.cron();
    const stub = await subscriptionStub(bot, "test", test.id);
    await runInDurableObject(stub, (instance) => {
      const own = instance as unknown as { env: { STATE: KVNamespace } };
      const kv = own.env.STATE;
      const refusing = new Proxy(kv, {
        get: (target, key) =>
          key === "put"
            ? () => Promise.reject(new Error("KV put() limit exceeded for the day."))
            : Reflect.get(target, key, target),
      });
      own.env = { ...own.env, STATE: refusing };
    });
    await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const posted = await bot.posted();
    expect(posted.map((m) => m.text)).toEqual([expect.stringMatching(/^Test failed/)]);
    const alert = posted[0] as StoredMessage;
    const status = await statusText(bot);
    expect(status).toMatch(/1 needs attention/);
    expect(status).toContain(`last alert <!date^${Math.floor(Number(alert.ts))}^`);
    expect((await health(bot)).failingSubscriptions).toBe(0);
  });
});
