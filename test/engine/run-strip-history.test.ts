import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60_000;

/** A message's strip as letters (P passed, F failed, R running): a failed assertion reads plainly. */
const stripOf = (message: StoredMessage) =>
  [...(visibleText(message).match(/[Ll]ast runs ((?:🟩|🟥|⬜)+)/u)?.[1] ?? "")]
    .map((square) => ({ "🟩": "P", "🟥": "F", "⬜": "R" })[square] ?? "?")
    .join("");

/** A fresh organization with one test of that name, and a channel subscribed to it. */
async function subscribedToNewTest(name: string) {
  const apiKey = await newOrg();
  const org = emulator.org(apiKey);
  const bot = createBot({ apiKey });
  const { id } = await org.addTest(name);
  await bot.command("/decipher", `subscribe test ${id}`);
  return { org, bot, id };
}

describe("the run strip of a test alert", () => {
  it("shows the last 10 runs even when the test ran fewer times in the last 24 h", async () => {
    const { org, bot, id } = await subscribedToNewTest("Nightly export");
    // Twelve nightly runs over the last twelve days, then tonight's failure.
    for (let day = 12; day >= 1; day--)
      await org.addRun(id, "passed", { createdAt: new Date(Date.now() - day * DAY).toISOString() });
    await org.addRun(id, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    expect(stripOf(alert as StoredMessage)).toBe("PPPPPPPPPF");
  });

  it("ends with the alert's own run: a pass read in the same poll is not in a strip about a failure", async () => {
    const { org, bot, id } = await subscribedToNewTest("Checkout flow");
    for (let i = 0; i < 9; i++) await org.addRun(id, "passed");
    // One poll sees the failure and the pass after it.
    const failed = await org.addRun(id, "failed");
    await org.addRun(id, "passed");
    await bot.cron();
    const [alert] = await bot.posted();
    const text = visibleText(alert as StoredMessage);
    expect(text).toContain(`runs/${failed.id}`);
    expect(text.includes("Recovered")).toBe(true);
    // The ten runs up to and including the failure, as the strip promises.
    expect(stripOf(alert as StoredMessage)).toBe("PPPPPPPPPF");
  });

  it("and its class are of one moment: a second failure read in the same poll is not in the first's class", async () => {
    const { org, bot, id } = await subscribedToNewTest("Checkout flow");
    for (let i = 0; i < 9; i++) await org.addRun(id, "passed");
    // One poll sees two failures in a row: the card is about the first, and says so.
    await org.addRun(id, "failed");
    await org.addRun(id, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    const text = visibleText(alert as StoredMessage);
    expect(text).toContain("failing for 2 runs");
    expect(text).toMatch(/At run #\d+: Last runs (🟩){9}🟥 · .*new failure — failed after 9 runs passed/u);
    expect(text).not.toContain("failed 2 runs in a row");
  });
});

describe("the run strip of a flaky thread reply", () => {
  it("ends with the run the reply says failed, even when a later run of the same read passed", async () => {
    const { org, bot, id } = await subscribedToNewTest("Search and filters");
    const t0 = Date.now();
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
      await org.addRun(id, status);
    await bot.cron(new Date(t0));
    const parent = (await bot.posted()).find((m) => /is flaky/.test(visibleText(m))) as StoredMessage;
    expect(parent).toBeDefined();

    const failed = await org.addRun(id, "failed");
    await org.addRun(id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const reply = (await bot.messages()).find(
      (m) => m.thread_ts === parent.ts && m.ts !== parent.ts && visibleText(m).includes(`Run #${failed.id}`),
    ) as StoredMessage;
    expect(stripOf(reply)).toBe("PFPPPFF");
  });
});
