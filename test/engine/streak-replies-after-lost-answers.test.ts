import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { ledgerOf, runIdsIn } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Review of the batched thread reply (src/messages/streak-reply.ts): what one poll reads of an
// open streak is one reply keyed by its first failure; a reply whose answer was lost is found
// again and edited to what is true now. Every failure recorded as told must be in the thread.

const MINUTE = 60_000;

const replies = (messages: StoredMessage[], parentTs: string) =>
  messages.filter((m) => m.thread_ts === parentTs && m.ts !== parentTs);

describe("a batched reply whose answer was lost, then more failures", () => {
  it("a failure added to a lost reply on its retry is in the thread even when Slack refuses the edit for now", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = Date.now();
    await org.addRun(101, "failed");
    await bot.cron(new Date(t0));
    const parent = (await bot.posted())[0] as StoredMessage;

    // The reply naming B and C reaches Slack; its answer does not.
    const b = await org.addRun(101, "failed");
    const c = await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.cron(new Date(t0 + MINUTE));

    // D fails; the retry finds the reply by its key and edits it to name D too, but Slack
    // rate-limits the edit (a Retry-After too long to wait for in-process).
    const d = await org.addRun(101, "failed");
    await bot.slackFault("chat.update", "429", 1, { retryAfter: 120 });
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await bot.clearSlackFaults();
    await bot.cron(new Date(t0 + 3 * MINUTE));
    await bot.cron(new Date(t0 + 4 * MINUTE));

    const ledger = await ledgerOf(bot, "test", 101);
    const thread = replies(await bot.posted(), parent.ts).flatMap((m) => runIdsIn(visibleText(m)));
    for (const run of [b, c, d]) {
      const row = ledger.find((r) => r.id === run.id);
      // Recorded as told in the thread: the thread must name it, once.
      if (row?.fate === "threaded") expect(thread.filter((id) => id === run.id)).toHaveLength(1);
      else expect(row?.fate ?? null).toBeNull();
    }
    expect(thread).toContain(d.id);
  });
});

describe("an Unmute, and a run that started before it and failed after it", () => {
  it("a failure that ended after the Unmute is posted even when its first post was refused and the next poll no longer reads it", async () => {
    const { bot, org } = await subscribedBot();
    const now = Date.now();
    const ago = (ms: number) => new Date(now - ms).toISOString();
    await org.addRun(101, "failed", { createdAt: ago(25 * MINUTE) });
    await bot.cron(new Date(now));
    const parent = (await bot.posted())[0] as StoredMessage;
    await bot.click(parent, "triage_mute");

    // A long run starts while muted; the poll sees it running.
    const long = await org.addRun(101, "running", { createdAt: ago(20 * MINUTE) });
    await bot.cron(new Date(now + MINUTE));
    await bot.click((await bot.messages()).find((m) => m.ts === parent.ts) as StoredMessage, "triage_unmute");
    await new Promise((resolve) => setTimeout(resolve, 20));
    // It fails after the Unmute, and a newer run fails too.
    await org.setRun(long.id, "failed");
    const newer = await org.addRun(101, "failed");

    // Slack refuses the reply for now; the next polls read from the newer run on.
    await bot.slackFault("chat.postMessage", "error", 1, { error: "ratelimited" });
    await bot.cron(new Date(now + 2 * MINUTE));
    for (let i = 3; i <= 6; i++) await bot.cron(new Date(now + i * MINUTE));

    const thread = replies(await bot.posted(), parent.ts).flatMap((m) => runIdsIn(visibleText(m)));
    expect(thread).toContain(newer.id);
    const row = (await ledgerOf(bot, "test", 101)).find((r) => r.id === long.id);
    expect(row?.fate).toBe("threaded");
    expect(thread).toContain(long.id);
  });
});
