import { describe, expect, it } from "vitest";
import { type Bot, visibleText } from "../../dev/in-workerd/bot.ts";
import { SETTLE_BOUND_MS } from "../../src/engine/settle-outcome.ts";
import { ledgerOf, runIdsIn } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// Review of #34 cases 1-2: an alert whose answer is lost twice in a row, with Slack's events
// lost and history refused past two bounds, is posted three times. Once history answers, every
// copy but the one the ledger points at must be deleted, not only the first.

const MINUTE = 60_000;

async function minute(bot: Bot, t0: number, m: number): Promise<void> {
  await bot.slackClock(new Date(t0 + m * MINUTE));
  await bot.cron(new Date(t0 + m * MINUTE));
}

describe("an alert whose answer was lost at its post and again at the bound's post", () => {
  it("ends as one message in the channel, the one the ledger points at", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    const t0 = Date.now();
    const failed = await org.addRun(test.id, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.slackFault("conversations.history", "429", 10_000, { retryAfter: 60 });
    let m = 0;
    const bound = SETTLE_BOUND_MS / MINUTE;
    for (; m < bound; m++) await minute(bot, t0, m);
    // The post at the bound is stored, and its answer lost too.
    await bot.slackFault("chat.postMessage", "lost", 1);
    for (; m <= 2 * bound + 3; m++) await minute(bot, t0, m);
    const naming = async () =>
      (await bot.posted()).filter((p) => runIdsIn(visibleText(p)).includes(failed.id));
    expect(await naming()).toHaveLength(3);

    await bot.clearSlackFaults();
    for (const end = m + 30; m <= end; m++) await minute(bot, t0, m);
    const left = await naming();
    expect(left).toHaveLength(1);
    const row = (await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed.id);
    expect(row?.ts).toBe(left[0]?.ts);
  });
});
