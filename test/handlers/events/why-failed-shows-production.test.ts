import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg } from "../../../dev/in-workerd/bot.ts";
import { askers } from "../../helpers/ask.ts";
import { eventsOf } from "../../helpers/events.ts";

/** #alerts watches the demo's Checkout flow (101), whose page /checkout has sessions (dev/emulator/README.md). */
async function watching(options: string) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", `subscribe test 101${options}`);
  await emulator.org(apiKey).addRun(101, "failed");
  await bot.cron();
  return askers(bot, eventsOf(bot));
}

describe("why did a test fail?", () => {
  it("with page:, names what that page sees in production, as the test's alerts do", async () => {
    const ask = await watching(" page:/checkout");
    const answer = await ask.mention("why did checkout flow fail?");
    expect(answer).toMatch(/Checkout flow>\* last failed/);
    expect(answer).toMatch(/\*Production:\* \d+\+? sessions? on `\/checkout` in 24 h/);
  });

  it("without page:, says nothing of production", async () => {
    const ask = await watching("");
    const answer = await ask.mention("why did checkout flow fail?");
    expect(answer).toMatch(/Checkout flow>\* last failed/);
    expect(answer).not.toContain("Production");
  });
});
