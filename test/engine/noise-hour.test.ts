import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage } from "../../dev/in-workerd/bot.ts";
import { startWithinOneUtcDay } from "../helpers/cases.ts";

/**
 * A scripted hour of the emulator's noisy scenario (tests flapping, then failing together, a
 * collection growing), three emulator ticks (20 s each) per one-minute cron, as `npm start`
 * runs it. "Before" is how the first release spoke: every failure its own alert, no outage
 * grouping (each test in a channel of its own, with `flaky:alert`). "After" is one channel
 * with the new defaults. The figures go to BENCHMARKS.md ("Noise").
 */

const CHANNELS = ["C0ALERTS", "C0GENERAL", "C0DEMO"];
const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);

async function scriptedHour(setup: (bot: ReturnType<typeof createBot>) => Promise<string[]>) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const channels = await setup(bot);
  const org = emulator.org(apiKey);
  await org.scenario("noisy");
  const vendorBefore = (await org.requests()).total;
  // The figures are of one day's rules: a test called flaky keeps to its thread until UTC midnight.
  const t0 = startWithinOneUtcDay(65 * 60_000);
  for (let minute = 1; minute <= 60; minute++) {
    for (let tick = 0; tick < 3; tick++) await org.tick();
    await bot.cron(new Date(t0 + minute * 60_000));
  }
  const posted = (await Promise.all(channels.map((c) => bot.posted(c)))).flat();
  return {
    topLevel: topLevel(posted).length,
    total: posted.length,
    vendor: (await org.requests()).total - vendorBefore,
  };
}

describe("an hour of flapping and an outage", () => {
  it("the new defaults post far fewer top-level messages than every-failure alerts", async () => {
    const before = await scriptedHour(async (bot) => {
      for (const [i, id] of [101, 102, 103].entries())
        await bot.command("/decipher", `subscribe test ${id} flaky:alert`, {
          channelId: CHANNELS[i] as string,
        });
      await bot.command("/decipher", "subscribe collection 501", { channelId: "C0ALERTS" });
      return CHANNELS;
    });
    const after = await scriptedHour(async (bot) => {
      for (const id of [101, 102, 103]) await bot.command("/decipher", `subscribe test ${id}`);
      await bot.command("/decipher", "subscribe collection 501");
      return ["C0ALERTS"];
    });
    console.log(
      `noise-hour: before ${before.topLevel} top-level / ${before.total} posts / ${before.vendor} vendor requests; ` +
        `after ${after.topLevel} top-level / ${after.total} posts / ${after.vendor} vendor requests`,
    );
    expect(after.topLevel).toBeLessThan(before.topLevel);
  }, 240_000);
});
