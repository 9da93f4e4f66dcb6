import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { health, ledgerOf, runIdsIn, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Review of the run ledger: a failed run always ends with a visible fate, or is counted overdue.

const MINUTE = 60_000;

const mentions = (messages: StoredMessage[], runId: number) =>
  messages.filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;

describe("every failed run has a visible fate or is overdue", () => {
  it("a pass that ended a streak, rerun and now failed, is told as a failure", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = Date.now();
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0));
    const pass = await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === pass.id)?.fate).toBe("recovered");
    // The vendor now reports the same run as failed (a rerun under the same id).
    await org.setRun(pass.id, "failed");
    for (let i = 2; i <= 9; i++) await bot.cron(new Date(t0 + i * MINUTE));
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === pass.id);
    expect(row?.status).toBe("failed");
    const toldOrOverdue =
      /announced|threaded|grouped/.test(row?.fate ?? "") || (await health(bot)).overdue > 0;
    expect(toldOrOverdue).toBe(true);
  });

  it("a failure still untold while Decipher is down is counted overdue on /health", async () => {
    const { bot, org } = await subscribedBot();
    const failed = await org.addRun(101, "failed");
    const t0 = Date.now();
    // Slack turns the alert away (a long rate limit: nothing was posted), then Decipher goes down.
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 30 });
    await bot.cron(new Date(t0));
    expect(mentions(await bot.posted(), failed.id)).toBe(0);
    await org.fault("testRuns", "500", 1000);
    for (let i = 1; i <= 7; i++) await bot.cron(new Date(t0 + i * MINUTE));
    expect((await health(bot)).overdue).toBe(1);
  });

  it("a failure counted and not posted (after:) is shown in status", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 after:3");
    const failed = await org.addRun(101, "failed");
    await bot.cron();
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === failed.id)).toMatchObject({
      fate: "counted",
      reason: "after",
    });
    expect(await statusText(bot)).toMatch(/1 failed run[^\n]*not posted[^\n]*after/i);
  });
});
