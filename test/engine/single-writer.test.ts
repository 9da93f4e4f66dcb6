import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { registryShard } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

const CHANNEL = "C0ALERTS";
const store = () => new SubscriptionStore(env.STATE);

const digestsIn = async (bot: ReturnType<typeof createBot>, channelId = CHANNEL) =>
  (await bot.posted(channelId)).filter((m) => /digest/i.test(visibleText(m)));

const failureAlerts = async (bot: ReturnType<typeof createBot>, runId: number) =>
  (await bot.posted()).filter((m: StoredMessage) => visibleText(m).includes(`runs/${runId}`));

/** Resolves once Slack has received a chat.postMessage (its answer may still be on the way). */
async function postReceived(bot: ReturnType<typeof createBot>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await bot.slackCalls()).some((c) => c.method === "chat.postMessage")) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no chat.postMessage reached Slack");
}

describe("one writer per subscription", () => {
  it("a cycle whose Slack post hangs past the next cron is not repeated by it", async () => {
    const { bot, org } = await subscribedBot();
    const run = await org.addRun(101, "failed");
    // Long enough that the next cron surely starts while it hangs, on a loaded machine too.
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 8_000 });
    const t0 = new Date();
    const first = bot.cron(t0);
    await postReceived(bot);
    const next = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date(t0.getTime() + 60_000) });
    expect(next.busy).toBe(1);
    await first;
    await bot.cron(new Date(t0.getTime() + 120_000));
    expect(await failureAlerts(bot, run.id)).toHaveLength(1);
  });

  it("five overlapping crons post each alert once", async () => {
    const { bot, org } = await subscribedBot();
    await bot.command("/decipher", "subscribe collection 501 growth:1");
    const run = await org.addRun(101, "failed");
    await org.grow(501, 2);
    const at = new Date();
    await Promise.all(Array.from({ length: 5 }, () => bot.cron(at)));
    await bot.cron(new Date(at.getTime() + 60_000));
    expect(await failureAlerts(bot, run.id)).toHaveLength(1);
    expect(await bot.posted()).toHaveLength(2);
  });

  it("an unsubscribe while a post is in flight stays an unsubscribe, and subscribing again works", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "hang", 1, { delayMs: 1_000 });
    const cycle = bot.cron();
    await postReceived(bot);
    await bot.command("/decipher", "unsubscribe test 101");
    await cycle;
    expect(await store().get(CHANNEL, "test", 101)).toBeNull();
    expect(await store().listKeys()).toEqual([]);
    const later = await org.addRun(101, "failed");
    await bot.cron(new Date(Date.now() + 60_000));
    expect(await failureAlerts(bot, later.id)).toEqual([]);

    await bot.command("/decipher", "subscribe test 101");
    const again = await org.addRun(101, "failed");
    await bot.cron(new Date(Date.now() + 120_000));
    expect(await failureAlerts(bot, again.id)).toHaveLength(1);
  });

  it("concurrent subscribes in several channels all end up in the index", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const commands: [string, string][] = [
      ["C0ALERTS", "subscribe test 101"],
      ["C0ALERTS", "subscribe test 102"],
      ["C0ALERTS", "subscribe test 103"],
      ["C0GENERAL", "subscribe test 101"],
      ["C0DEMO", "subscribe test 101"],
      ["C0DEMO", "subscribe collection 501"],
    ];
    await Promise.all(commands.map(([channelId, text]) => bot.command("/decipher", text, { channelId })));
    expect(await store().listKeys()).toHaveLength(commands.length);
    expect(await (await registryShard(bot)).list()).toHaveLength(commands.length);
  });
});

describe("digests", () => {
  const dueOf = async (channelId: string) =>
    new Date(((await new DigestStore(env.STATE).get(channelId)) as { nextDueAt: string }).nextDueAt);

  it("overlapping cycles send each channel's due digest once", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    for (const channelId of ["C0GENERAL", "C0DEMO"]) {
      await bot.command("/decipher", "subscribe test 101", { channelId });
      await bot.command("/decipher", "digest 09:00 UTC", { channelId });
    }
    const at = new Date((await dueOf("C0GENERAL")).getTime() + 5_000);
    await Promise.all([bot.cron(at), bot.cron(at), bot.cron(at)]);
    await bot.cron(new Date(at.getTime() + 60_000));
    for (const channelId of ["C0GENERAL", "C0DEMO"])
      expect(await digestsIn(bot, channelId), channelId).toHaveLength(1);
  });

  it("sends the digest even when one subscription's test is gone at Decipher", async () => {
    const { bot } = await subscribedBot();
    await bot.command("/decipher", "subscribe collection 501");
    await bot.command("/decipher", "digest 09:00 UTC");
    const gone = await store().get(CHANNEL, "test", 101);
    if (gone?.kind !== "test") throw new Error("expected the test subscription");
    await store().update({ ...gone, testId: 987654 });
    await bot.cron(new Date((await dueOf(CHANNEL)).getTime() + 5_000));
    expect(await digestsIn(bot)).toHaveLength(1);
  });
});

describe("Slack outages", () => {
  it("backs off while Slack keeps failing: after a few minutes, a try every fifth cycle", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.slackFault("chat.postMessage", "error", 1000, { error: "internal_error" });
    const start = Date.now();
    const minute = (n: number) => new Date(start + n * 60_000);
    await bot.cron(minute(0));
    const tries = async () => (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage").length;
    const before = await tries();
    for (let n = 4; n <= 10; n++) await bot.cron(minute(n));
    // Minutes 4–10 of the outage: only 5 and 10 try again.
    expect((await tries()) - before).toBe(2);
  });
});
