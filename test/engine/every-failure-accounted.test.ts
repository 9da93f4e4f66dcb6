import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { health, ledgerOf, outageLeftMidPost, runIdsIn, statusText } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// The cases, each the way a channel would live it. Every failed run the bot sees gets
// one visible fate in its subscription's ledger; a run without one is reported as overdue.

const MINUTE = 60_000;
type Bot = ReturnType<typeof createBot>;

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const isOutage = (m: StoredMessage) => /failing at once/.test(visibleText(m));
const mentions = (messages: StoredMessage[], runId: number) =>
  messages.filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;

async function expectEveryFailureTold(bot: Bot, testIds: number[]) {
  for (const id of testIds) {
    const failed = (await ledgerOf(bot, "test", id)).filter((r) => r.status === "failed");
    for (const row of failed)
      expect([row.id, row.fate]).toEqual([row.id, expect.stringMatching(/announced|threaded|grouped/)]);
  }
}

describe("every failed run accounted for", () => {
  it("a test's first run, failing seconds after the channel subscribed, is announced", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const run = await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(mentions(await bot.posted(), run.id)).toBe(1);
    expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === run.id)?.fate).toBe("announced");
    expect((await health(bot)).overdue).toBe(0);
  });

  it("a failure Slack cannot take for five minutes is overdue on /health, in status and on Home, then told late", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const run = await org.addRun(test.id, "failed");
    await bot.slackFault("chat.postMessage", "500", 2);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + 5 * MINUTE));
    expect((await health(bot)).overdue).toBe(1);
    expect(await statusText(bot)).toMatch(/1 failed run seen over 5 minutes ago has not been told yet/);
    await bot.cron(new Date(t0 + 10 * MINUTE));
    const posted = await bot.posted();
    expect(mentions(posted, run.id)).toBe(1);
    expect(visibleText(posted[0] as StoredMessage)).toMatch(/Late: the bot first saw this run/);
    expect((await health(bot)).overdue).toBe(0);
  });

  it("fail, pass, fail of one test in an outage cycle: the first and its pass are named in the outage, the second joins its thread at the next poll", async () => {
    const { bot, org, tests } = await channelWatching(3);
    const [x, y, z] = tests as unknown as [{ id: number }, { id: number }, { id: number }];
    const first = await org.addRun(x.id, "failed");
    const pass = await org.addRun(x.id, "passed");
    const second = await org.addRun(x.id, "failed");
    await org.addRun(y.id, "failed");
    await org.addRun(z.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    const posted = await bot.posted();
    expect(topLevel(posted)).toHaveLength(1);
    const outage = topLevel(posted).find(isOutage) as StoredMessage;
    expect(visibleText(outage)).toMatch(new RegExp(`run #${first.id}\\b.*then passed on the next run`));
    expect(mentions(posted, second.id)).toBe(1);
    const ledger = await ledgerOf(bot, "test", x.id);
    expect(ledger.find((r) => r.id === first.id)).toMatchObject({ fate: "grouped", ts: outage.ts });
    expect(ledger.find((r) => r.id === pass.id)?.fate).toBe("recovered");
    expect(ledger.find((r) => r.id === second.id)).toMatchObject({ fate: "grouped", ts: outage.ts });
    await expectEveryFailureTold(bot, [x.id, y.id, z.id]);
  });

  it("twenty tests failing at once with long summaries: every test is named once, in the message or its thread", async () => {
    const { bot, org, tests } = await channelWatching(20, {
      names: (i) => `Checkout & payment step ${i + 1} <${"x".repeat(40)}>`,
    });
    const runs: number[] = [];
    const summary = `The payment form never loaded; ${"the spinner kept turning and ".repeat(5)}`.slice(
      0,
      160,
    );
    for (const test of tests)
      runs.push((await org.addRun(test.id, "failed", { oneLineSummary: summary })).id);
    await bot.cron();
    const posted = await bot.posted();
    expect(topLevel(posted).filter(isOutage)).toHaveLength(1);
    for (const id of runs) expect(mentions(posted, id)).toBe(1);
    await expectEveryFailureTold(
      bot,
      tests.map((t) => t.id),
    );
  });

  it("a run whose createdAt is in 2099 is announced, and does not stop the test's later alerts", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const odd = await org.addRun(test.id, "failed", { raw: { createdAt: "2099-01-01T00:00:00.000Z" } });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const later = await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(mentions(posted, odd.id)).toBe(1);
    expect(mentions(posted, later.id)).toBe(1);
    expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === odd.id)?.createdAt).toBeNull();
  });

  it("an outage message whose poster died mid-post is found by its key: one message, and a fourth failure joins its thread", async () => {
    const { bot, org, tests } = await channelWatching(4);
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
    await bot.cron(new Date(t0));
    const posted = await bot.posted();
    expect(topLevel(posted)).toHaveLength(1);
    expect(topLevel(posted)[0]?.ts).toBe(stored);
    expect(mentions(posted, fourth.id)).toBe(1);
    for (const test of tests) {
      const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.status === "failed");
      expect(row).toMatchObject({ fate: "grouped", ts: stored });
    }
  });

  it("a digest whose answer was lost is in the channel once", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101");
    await bot.command("/decipher", "digest 09:00 UTC");
    const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
    const due = new Date(schedule?.nextDueAt ?? 0).getTime();
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(due + 5_000));
    await bot.cron(new Date(due + MINUTE));
    await bot.cron(new Date(due + 2 * MINUTE));
    const digests = (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));
    expect(digests).toHaveLength(1);
    expect(await bot.alertPosts()).toHaveLength(1);
  });

  it("a channel of 200 tests gets its digest, from the tests' own ledgers: no vendor read per test", async () => {
    const { bot, org, tests } = await channelWatching(200, { names: (i) => `Smoke ${i + 1}` });
    await org.addRun((tests[7] as { id: number }).id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.command("/decipher", "digest 09:00 UTC");
    const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
    const due = Date.parse(schedule?.nextDueAt ?? "");
    const before = (await org.requests()).byRoute.testRuns ?? 0;
    await bot.cron(new Date(due + 5_000));
    const digest = (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));
    expect(digest).toHaveLength(1);
    // The cron's own polls read each test once (a read that timed out on a busy machine is
    // tried again); a digest that read each test too would make it 400.
    expect(((await org.requests()).byRoute.testRuns ?? 0) - before).toBeLessThan(300);
    const text = visibleText(digest[0] as StoredMessage);
    expect(text).toMatch(/Smoke 8/);
  }, 300_000);

  it("a 'polls are failing' notice whose answer was lost is in the channel once", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 101");
    const org = emulator.org(bot.env.DECIPHER_API_KEY as string);
    await org.fault("testRuns", "500", 200);
    const t0 = Date.now();
    await bot.slackFault("chat.postMessage", "lost", 1);
    for (let i = 0; i <= 18; i++) await bot.cron(new Date(t0 + i * MINUTE));
    const notices = (await bot.posted()).filter((m) => /have not worked/i.test(visibleText(m)));
    expect(notices).toHaveLength(1);
  });
});
