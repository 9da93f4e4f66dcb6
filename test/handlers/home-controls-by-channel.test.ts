import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage } from "../../dev/in-workerd/bot.ts";
import { objectState } from "../helpers/cases.ts";
import { eventsOf } from "../helpers/events.ts";

// Issue #36, finding 4: the Home tab lists only the channels a person is in, but a control's
// value names its channel. A Home click must act only where the clicker is a member (read
// fresh from Slack), or where a bot admin acts.

describe("a Home control naming a private channel", () => {
  it("changes nothing when someone outside that channel clicks it", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    // #incidents is private: Alice and the bot are in it, Bob is not.
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0PRIVATE" });
    await emulator.org(apiKey).addRun(101, "failed");
    await bot.cron();
    const [alert] = await bot.posted("C0PRIVATE");
    await bot.click(alert as StoredMessage, "triage_mute", { channelId: "C0PRIVATE" });
    await events.openHome("U0ALICE");

    // Alice's Unmute, sent by Bob.
    await events.clickInHome("triage_unmute", "U0ALICE", "U0BOB");
    expect((await objectState(bot, "test", 101, "C0PRIVATE"))?.muted?.by).toBe("U0ALICE");

    // Alice herself may.
    await events.clickInHome("triage_unmute", "U0ALICE");
    expect((await objectState(bot, "test", 101, "C0PRIVATE"))?.muted ?? null).toBeNull();
  });
});
