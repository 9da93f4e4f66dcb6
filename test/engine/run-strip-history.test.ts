import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("the run strip of a test alert", () => {
  it("shows the last 10 runs even when the test ran fewer times in the last 24 h", async () => {
    const apiKey = await newOrg();
    const org = emulator.org(apiKey);
    const bot = createBot({ apiKey });
    const { id } = await org.addTest("Nightly export");
    await bot.command("/decipher", `subscribe test ${id}`);
    // Twelve nightly runs over the last twelve days, then tonight's failure.
    for (let day = 12; day >= 1; day--)
      await org.addRun(id, "passed", { createdAt: new Date(Date.now() - day * DAY).toISOString() });
    await org.addRun(id, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    const strip = visibleText(alert as StoredMessage).match(/Last runs ((?:🟩|🟥|⬜)+)/u)?.[1] ?? "";
    expect([...strip]).toHaveLength(10);
    expect(strip).toBe("🟩🟩🟩🟩🟩🟩🟩🟩🟩🟥");
  });
});
