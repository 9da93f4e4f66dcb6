import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Bot, createBot, newOrg, visibleText } from "../dev/in-workerd/bot.ts";
import { DigestStore } from "../src/store/digest-store.ts";
import { health, statusText } from "./helpers/cases.ts";
import { subscribedBot } from "./helpers/emulator.ts";

// "Last poll" and the digest's backoff live in the engine's objects, not in the Cache API
// (per location, evictable): /health and /decipher status see the last poll after a cron,
// and a failed digest backs off and is sent once.

const MINUTE = 60_000;
const sources = import.meta.glob("../src/**/*.ts", { query: "?raw", import: "default", eager: true });

describe("no Cache API", () => {
  it("no source file uses the Cache API", () => {
    const files = Object.entries(sources);
    expect(files.length).toBeGreaterThan(50);
    for (const [path, text] of files) {
      expect({ path, uses: /\bcaches\s*\.|\bcaches\.default\b|new\s+Cache\b/.test(String(text)) }).toEqual({
        path,
        uses: false,
      });
    }
  });
});

describe("the last poll, after a cron", () => {
  it("/health and status show it; before any cron they say so", async () => {
    const { bot } = await subscribedBot();
    const before = await health(bot);
    expect(before.lastPollAt).toBeNull();
    expect(before.lastSuccessfulPollAgeSeconds).toBeNull();
    expect(before.ok).toBe(true);
    expect(await statusText(bot)).toMatch(/No poll has run yet/);

    const at = new Date(Date.now() - 2 * MINUTE);
    await bot.cron(at);
    const after = await health(bot);
    expect(after.lastPollAt).toBe(at.toISOString());
    expect(after.lastSuccessfulPollAt).toBe(at.toISOString());
    expect(after.lastSuccessfulPollAgeSeconds).toBeGreaterThanOrEqual(119);
    expect(after.lastSuccessfulPollAgeSeconds).toBeLessThan(200);
    expect(after.subscriptions).toBe(1);
    expect(after.failingSubscriptions).toBe(0);
    const status = await statusText(bot);
    expect(status).toContain(`Last poll <!date^${Math.floor(at.getTime() / 1000)}^`);
    // The deployment's count is not said in a channel (another workspace's subscriptions are in it).
    expect(status).not.toMatch(/subscriptions? checked/);
  });

  it("a later cron moves it, and a fresh bot binding (another isolate) sees the same", async () => {
    const { bot } = await subscribedBot();
    const t0 = Date.now() - 5 * MINUTE;
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + MINUTE));
    const other = createBot({ apiKey: await newOrg(), botToken: bot.botToken });
    expect((await health(other)).lastPollAt).toBe(new Date(t0 + MINUTE).toISOString());
  });
});

describe("the minute cron, the watchdog of every clock", () => {
  it("is fine two minutes after its last run", async () => {
    const { bot } = await subscribedBot();
    await bot.cron(new Date(Date.now() - 2 * MINUTE));
    const fresh = await health(bot);
    expect(fresh.ok).toBe(true);
    expect(fresh.watchdogAgeSeconds).toBeGreaterThanOrEqual(119);
  });

  it("is a problem of /health after three missed minutes, though the last poll is not stale", async () => {
    const { bot } = await subscribedBot();
    await bot.cron(new Date(Date.now() - 4 * MINUTE));
    const late = await health(bot);
    // The last successful poll is 4 minutes old, far from the 15 that make polls stale: only the cron is late.
    expect(late.ok).toBe(false);
    expect(late.watchdogAgeSeconds).toBeGreaterThanOrEqual(239);
    expect(late.problems).toEqual([
      "the minute cron (the watchdog, digests and weekly reports) last ran 4 minutes ago",
    ]);
  });
});

async function dueDigest(bot: Bot): Promise<number> {
  await bot.command("/decipher", "digest 09:00 UTC");
  const schedule = await new DigestStore(env.STATE).get("C0ALERTS");
  return Date.parse((schedule as { nextDueAt: string }).nextDueAt);
}

const digestPosts = async (bot: Bot) =>
  (await bot.slackCalls()).filter(
    (c) => c.method === "chat.postMessage" && /digest/i.test(JSON.stringify(c.params ?? {})),
  );

describe("digest backoff", () => {
  it("a digest Slack refuses is tried each minute for three minutes, then every fifth, and sent once", async () => {
    const { bot } = await subscribedBot();
    const due = await dueDigest(bot);
    // Four attempts fail (a post is never retried in place: each 500 is one attempt, looked up
    // in the channel's history before the next one).
    await bot.slackFault("chat.postMessage", "500", 4);
    const tried: number[] = [];
    for (let m = 0; m <= 11; m++) {
      const before = (await digestPosts(bot)).length;
      await bot.cron(new Date(due + 5_000 + m * MINUTE));
      if ((await digestPosts(bot)).length > before) tried.push(m);
    }
    expect(tried).toEqual([0, 1, 2, 5, 10]);
    const digests = (await bot.posted()).filter((m) => /digest/i.test(visibleText(m)));
    expect(digests).toHaveLength(1);
  }, 60_000);
});
