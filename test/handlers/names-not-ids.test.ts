import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { subscribedBot } from "../helpers/emulator.ts";

type Block = {
  type: string;
  elements?: {
    action_id?: string;
    text?: { text: string };
    confirm?: { title: { text: string }; text: { text: string } };
  }[];
};

const buttons = (message: { blocks?: unknown }) =>
  ((message.blocks ?? []) as Block[]).flatMap((b) => (b.type === "actions" ? (b.elements ?? []) : []));

describe("the bot names what it watches, not only its id", () => {
  it("the Mute dialog, the Unmute button in status and the unsubscribe reply name the test", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    const mute = buttons(alert ?? {}).find((e) => e.action_id === "triage_mute");
    expect(mute?.confirm?.title.text).toBe("Mute “Checkout flow” (test 101)?");
    expect(mute?.confirm?.text.text).toContain("alerts for “Checkout flow” (test 101)");

    await bot.click(alert as StoredMessage, "triage_mute");
    const status = JSON.parse((await bot.command("/decipher", "status")).body);
    expect(buttons(status).map((e) => e.text?.text)).toContain("Unmute Checkout flow");

    const gone = JSON.parse((await bot.command("/decipher", "unsubscribe test 101")).body);
    expect(visibleText(gone)).toMatch(
      /Unsubscribed this channel from test <[^|]+\|Checkout flow \(#101\)>\./,
    );
    const again = JSON.parse((await bot.command("/decipher", "unsubscribe test 101")).body);
    expect(visibleText(again)).toMatch(/was not subscribed to test 101; nothing changed/);
  });
});
