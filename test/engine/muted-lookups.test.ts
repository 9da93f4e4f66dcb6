import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../../dev/in-workerd/bot.ts";
import { SETTLE_BOUND_MS } from "../../src/engine/settle-outcome.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A collection muted from its card is not polled (src/objects/subscription-object.ts), but what
// its outbox owes Slack is not a poll: a second copy the settle bound posted must still be found
// and deleted (docs/architecture.md, "An unknown outcome, settled").

const MINUTE = 60_000;
const cards = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);

describe("a collection muted after the settle bound posted its alert again", () => {
  it("still deletes the earlier copy once Slack's history answers", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await org.grow(501, 4);
    // Slack stores the alert and the answer is lost; history is refused past the bound.
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.slackFault("conversations.history", "429", 10_000, { retryAfter: 60 });
    let m = 1;
    for (; m <= SETTLE_BOUND_MS / MINUTE + 3; m++) await bot.cron(new Date(t0 + m * MINUTE));
    const both = cards(await bot.posted());
    expect(both).toHaveLength(2);

    // Someone mutes it from the card they see; then Slack reads history again.
    await bot.click(both[1] as StoredMessage, "triage_mute");
    await bot.clearSlackFaults();
    for (const end = m + 30; m <= end; m++) await bot.cron(new Date(t0 + m * MINUTE));
    expect(cards(await bot.posted())).toHaveLength(1);
  });
});
