import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { health, ledgerOf, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Review of the outbox: a post whose answer was lost must end as one message that is true,
// whatever the next cycles decide about the same run or the same notice.

const MINUTE = 60_000;

const mentions = (messages: StoredMessage[], runId: number) =>
  messages.filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;

describe("a lost answer, then a later cycle decides about the same message", () => {
  it("a failure whose alert answer was lost is not named again by an outage message the next cycle", async () => {
    const { bot, org, tests } = await channelWatching(3);
    const [a, b, c] = tests as unknown as [{ id: number }, { id: number }, { id: number }];
    const first = await org.addRun(a.id, "failed");
    const t0 = Date.now();
    // Slack stores A's alert, but the answer never comes back.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    // Next cycle two more tests fail: three held failures make an outage.
    await org.addRun(b.id, "failed");
    await org.addRun(c.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(mentions(await bot.posted(), first.id)).toBe(1);
  });

  it("a failure whose alert answer was lost, then a pass: the channel is told it passed", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const failed = await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    const passed = await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(mentions(posted, failed.id)).toBe(1);
    expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === passed.id)?.fate).toBe("recovered");
    // The recovery is recorded as told: some message in the channel must say so.
    expect(posted.some((m) => /then passed|passed again/.test(visibleText(m)))).toBe(true);
  });

  it("an 'alerts are working again' notice whose answer was lost is in the channel once", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101");
    const org = emulator.org(apiKey);
    const t0 = Date.now();
    await org.fault("testRuns", "500", 1000);
    for (let i = 0; i <= 16; i++) await bot.cron(new Date(t0 + i * MINUTE));
    expect((await bot.posted()).filter((m) => /have not worked/.test(visibleText(m)))).toHaveLength(1);
    await org.clearFaults();
    // Decipher answers again; the "working again" notice reaches Slack, its answer does not.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + 17 * MINUTE));
    // A run moves the shown watermark, so the next poll stores the subscription again.
    await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + 18 * MINUTE));
    await bot.cron(new Date(t0 + 19 * MINUTE));
    expect((await bot.posted()).filter((m) => /working again/.test(visibleText(m)))).toHaveLength(1);
  });

  it("a lookup refused for a missing history scope is shown as the workspace's problem on /health", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    await org.addRun(test.id, "failed");
    const t0 = Date.now();
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0));
    // An install made before the history scopes: every lookup is refused.
    await bot.slackFault("conversations.history", "error", 50, { error: "missing_scope" });
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(((await health(bot)).problems ?? []).join(" ")).toMatch(/missing_scope/);
  });
});
