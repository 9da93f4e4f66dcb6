import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { subscribedBot } from "../helpers/emulator.ts";

/** `/decipher ask <question>`: the mention's answers (#39), to the person alone. */
describe("/decipher ask", () => {
  it("answers 'what failed today?' with the day's failures of the channel's tests, only to the person asking", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await org.addRun(101, "passed");
    await bot.cron();
    const ack = JSON.parse((await bot.command("/decipher", "ask what failed today?")).body);
    expect(ack.response_type).toBe("ephemeral");
    const answers = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral && m.visible_to === "U0ALICE");
    const text = visibleText(answers.at(-1) ?? {});
    expect(text).toMatch(/tests\/101\|Checkout flow>\* failed \d+ of \d+ runs/);
    // The channel sees its alert only, not the answer.
    expect((await bot.posted()).map(visibleText).filter((t) => t.includes("failed since"))).toEqual([]);
  });

  it("answers what it cannot place with the questions it answers, and an empty question too", async () => {
    const { bot } = await subscribedBot();
    for (const text of ["ask tell me a joke", "ask"]) {
      await bot.command("/decipher", text);
      const answers = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral);
      expect(visibleText(answers.at(-1) ?? {})).toContain("is Checkout flow broken?");
    }
  });
});
