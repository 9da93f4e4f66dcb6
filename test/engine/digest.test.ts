import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";

const MINUTE = 60_000;

async function channelWithDigest(time: string, zone = "UTC") {
  const bot = createBot({ apiKey: await newOrg() });
  await bot.command("/decipher", "subscribe test 101");
  await bot.command("/decipher", "subscribe collection 501");
  await bot.command("/decipher", `digest ${time} ${zone}`);
  const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
  if (!schedule) throw new Error("digest was not stored");
  return { bot, due: new Date(schedule.nextDueAt) };
}

const digests = async (bot: ReturnType<typeof createBot>) =>
  (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));

describe("daily digest", () => {
  it("is due at the first HH:MM after it was set, in the channel's zone", async () => {
    const before = Date.now();
    const { due } = await channelWithDigest("09:00", "Asia/Tokyo");
    expect(due.getTime()).toBeGreaterThan(before);
    expect(due.getTime() - before).toBeLessThanOrEqual(24 * 60 * MINUTE);
    expect(due.getUTCHours()).toBe(0); // 09:00 in Tokyo
    expect(due.getUTCMinutes()).toBe(0);
  });

  it("goes out once when due, titled as a digest, listing tests and collections", async () => {
    const { bot, due } = await channelWithDigest("09:00");
    await bot.cron(new Date(due.getTime() - MINUTE));
    expect(await digests(bot)).toEqual([]);
    await bot.cron(new Date(due.getTime() + 5_000));
    await bot.cron(new Date(due.getTime() + MINUTE));
    const sent = await digests(bot);
    expect(sent).toHaveLength(1);
    const text = visibleText(sent[0] as StoredMessage);
    expect(text).toMatch(/Checkout flow/);
    expect(text).toMatch(/501|checkout|cart/i);
  });

  it("reads the channel's subscriptions from its index, not their KV copies", async () => {
    const { bot, due } = await channelWithDigest("09:00");
    // The readable copies gone (KV is eventually consistent, and no longer what the digest reads).
    for (const key of ["sub:C0ALERTS:test:101", "sub:C0ALERTS:collection:501", "index:subscriptions"])
      await env.STATE.delete(key);
    await bot.cron(new Date(due.getTime() + 5_000));
    const sent = await digests(bot);
    expect(sent).toHaveLength(1);
    const text = visibleText(sent[0] as StoredMessage);
    expect(text).toMatch(/Checkout flow/);
    expect(text).toMatch(/501|checkout|cart/i);
  });

  it("then once per local day, and a digest skipped by a missed cron goes out at the next cycle", async () => {
    const { bot, due } = await channelWithDigest("07:30", "Europe/Berlin");
    // The cron was down for three hours around the due time.
    await bot.cron(new Date(due.getTime() + 3 * 60 * MINUTE));
    expect(await digests(bot)).toHaveLength(1);
    await bot.cron(new Date(due.getTime() + 20 * 60 * MINUTE));
    expect(await digests(bot)).toHaveLength(1);
    await bot.cron(new Date(due.getTime() + 24 * 60 * MINUTE + MINUTE));
    expect(await digests(bot)).toHaveLength(2);
  });

  it("is retried next cycle when Slack fails, and sent once", async () => {
    const { bot, due } = await channelWithDigest("09:00");
    await bot.slackFault("chat.postMessage", "500", 2);
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(await digests(bot)).toEqual([]);
    await bot.cron(new Date(due.getTime() + MINUTE));
    await bot.cron(new Date(due.getTime() + 2 * MINUTE));
    expect(await digests(bot)).toHaveLength(1);
  });

  it("stops when turned off", async () => {
    const { bot, due } = await channelWithDigest("09:00");
    await bot.command("/decipher", "digest off");
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(await digests(bot)).toEqual([]);
  });
});

describe("the digest's 24-hour figures", () => {
  it("counts a collection's sessions of the last 24 hours, whenever the last alert or digest was", async () => {
    const { bot, due } = await channelWithDigest("09:00");
    await emulator.org(bot.env.DECIPHER_API_KEY as string).grow(501, 3);
    await bot.cron(new Date(due.getTime() + 5_000));
    const text = visibleText((await digests(bot))[0] as StoredMessage);
    expect(text).toMatch(/\+?\d+\+? in 24 h/);
    expect(text).not.toMatch(/since the last digest/);
  });
});
