import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { objectState } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// An outbox key is the one object's (src/engine/outbox.ts): two subscriptions of one channel may
// send the same key in the same cron (a notice keyed by a time the cron gives them both). A
// lookup for one of them must never take the other's post for its own.

const MINUTE = 60_000;

describe("two tests in one channel whose posts share a key", () => {
  it("each gets its own 'working again' notice, though one post was refused before Slack stored it", async () => {
    const { bot, org, tests } = await channelWatching(2);
    await bot.restrictChannel("restricted_action", "C0ALERTS");
    for (const t of tests) await org.addRun(t.id, "failed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    for (const t of tests)
      expect((await objectState<TestSubscription>(bot, "test", t.id))?.paused).toBeTruthy();

    await bot.restrictChannel(null, "C0ALERTS");
    // The first notice of the hourly try is answered 500, and Slack did not store it.
    await bot.slackFault("chat.postMessage", "500", 1);
    for (let m = 60; m <= 70; m++) await bot.cron(new Date(t0 + m * MINUTE));

    const notices = (await bot.posted()).map((m) => visibleText(m)).filter((t) => /working again/.test(t));
    for (const t of tests) expect(notices.filter((n) => n.includes(`(${t.id})`))).toHaveLength(1);
  });
});
