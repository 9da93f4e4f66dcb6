import { describe, expect, it } from "vitest";
import { type Bot, emulatorUrl, type StoredMessage, visibleText } from "../../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../../src/messages/action-ids.ts";
import { assertWithinSlackLimits, buttonsOf } from "../../helpers/block-kit.ts";
import { channelWatching, subscribedBot } from "../../helpers/emulator.ts";

/** `/decipher list` or `status` answered in the ack, as the message the person sees. */
async function firstPage(bot: Bot, what: "list" | "status"): Promise<StoredMessage> {
  const ack = JSON.parse((await bot.command("/decipher", what)).body) as StoredMessage;
  return { ...ack, ts: "1700000000.000100", ephemeral: true, channel: "C0ALERTS" };
}

/** Every page from the first, by clicking More until there is none. */
async function allPages(bot: Bot, what: "list" | "status"): Promise<StoredMessage[]> {
  const pages = [await firstPage(bot, what)];
  for (;;) {
    const last = pages.at(-1) as StoredMessage;
    if (!buttonsOf(last as never).some((b) => b.action_id === ACTION_IDS.channelMore)) return pages;
    expect((await bot.click(last, ACTION_IDS.channelMore)).status).toBe(200);
    pages.push((await bot.messages("C0ALERTS")).at(-1) as StoredMessage);
    if (pages.length > 20) throw new Error("More never ends");
  }
}

const testIdsIn = (text: string) => [...text.matchAll(/\(#(\d+)\)/g)].map((m) => Number(m[1]));

describe("/decipher list and status of a big channel", () => {
  it("show every one of 50 subscriptions with long names, a page at a time with More", async () => {
    const { bot, tests } = await channelWatching(50, {
      names: (i) => `Checkout, payment and the order confirmation e-mail, in every browser ${i + 1}`,
    });
    const all = tests.map((t) => t.id).sort((a, b) => a - b);
    for (const what of ["list", "status"] as const) {
      const pages = await allPages(bot, what);
      expect(pages.length).toBeGreaterThan(1);
      const shown = pages.flatMap((p) => testIdsIn(visibleText(p)));
      expect([...shown].sort((a, b) => a - b)).toEqual(all);
      for (const page of pages) assertWithinSlackLimits(page as never);
      expect(visibleText(pages[1] as StoredMessage)).toMatch(/Page 2/);
      expect(buttonsOf(pages[1] as never).map((b) => b.action_id)).toContain(ACTION_IDS.channelFirst);
      expect(visibleText(pages[0] as StoredMessage)).toMatch(/50 subscriptions/);
    }
  });

  it("First page goes back to the page the command showed", async () => {
    const { bot } = await channelWatching(30, {
      names: (i) => `${"A long descriptive test name ".repeat(3)}${i}`,
    });
    const pages = await allPages(bot, "list");
    await bot.click(pages[1] as StoredMessage, ACTION_IDS.channelFirst);
    const back = (await bot.messages("C0ALERTS")).at(-1) as StoredMessage;
    expect(testIdsIn(visibleText(back))).toEqual(testIdsIn(visibleText(pages[0] as StoredMessage)));
  });
});

describe("the channel index behind list and status", () => {
  it("reads the channel in one call: no KV read per subscription", async () => {
    const { bot } = await channelWatching(12);
    await bot.command("/decipher", "list");
    const before = bot.kv.reads;
    const page = await firstPage(bot, "list");
    expect(testIdsIn(visibleText(page))).toHaveLength(12);
    expect(bot.kv.reads - before).toBeLessThanOrEqual(1);
  });

  it("drops an unsubscribed test from list at once", async () => {
    const { bot, tests } = await channelWatching(3);
    const gone = tests[1] as { id: number };
    await bot.command("/decipher", `unsubscribe test ${gone.id}`);
    const text = visibleText(await firstPage(bot, "list"));
    expect(testIdsIn(text)).toEqual(tests.filter((t) => t !== gone).map((t) => t.id));
  });

  it("shows a failing test as failing, with its last alert, once the alert is posted", async () => {
    const { bot, org } = await subscribedBot();
    expect(visibleText(await firstPage(bot, "status"))).toMatch(/no failure alert yet/);
    await org.addRun(101, "failed");
    await bot.cron();
    const status = visibleText(await firstPage(bot, "status"));
    expect(status).toMatch(/1 subscription: 1 needs attention/);
    expect(status).toMatch(/last alert <!date\^\d+/);
  });

  it("keeps the last alert after the test passes again", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    await org.addRun(101, "passed");
    await bot.cron();
    const status = visibleText(await firstPage(bot, "status"));
    expect(status).toMatch(/1 subscription\b(?!:)/);
    expect(status).toMatch(/last alert <!date\^\d+/);
  });

  it("a collection that has not alerted yet says where its growth is counted from, not 'at the last alert'", async () => {
    const { bot } = await subscribedBot("subscribe collection 501");
    const status = visibleText(await firstPage(bot, "status"));
    expect(status).toMatch(/no growth alert yet/);
    expect(status).toMatch(/growth counted from \d+ sessions/);
    expect(status).not.toMatch(/at the last alert/);
  });

  it("a test whose failure went to the day's flaky thread names that thread as its last alert", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 flaky:thread");
    const flaky = await fetch(`${emulatorUrl}/__emulator/scenario`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ apiKey: org.apiKey, name: "noisy" }),
    });
    expect(flaky.ok).toBe(true);
    await org.addRun(101, "passed");
    await org.addRun(101, "failed");
    await bot.cron();
    await bot.cron();
    const posted = (await bot.posted("C0ALERTS")).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect((posted.at(-1) as StoredMessage).text).toMatch(/is flaky/);
    const at = Math.floor(Number((posted.at(-1) as StoredMessage).ts));
    expect(visibleText(await firstPage(bot, "status"))).toMatch(new RegExp(`last alert <!date\\^${at}\\^`));
  });
});
