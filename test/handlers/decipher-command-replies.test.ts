import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";

const store = () => new SubscriptionStore(env.STATE);

async function lastReply(bot: ReturnType<typeof createBot>, channelId = "C0ALERTS") {
  return visibleText((await bot.messages(channelId)).at(-1) ?? {});
}

describe("/decipher", () => {
  it("subscribes a channel to a test with a baseline, naming the test", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    expect(JSON.parse(ack.body).text).toMatch(/Checking test 101/);
    expect(await lastReply(bot, "C0GENERAL")).toMatch(/Subscribed this channel to test/);
    const saved = await store().get("C0GENERAL", "test", 101);
    expect(saved).toMatchObject({ kind: "test", testId: 101, paused: null });
    expect(saved?.kind === "test" && saved.lastRunId).toBeGreaterThan(0);
  });

  it("is idempotent: subscribing twice keeps the first baseline", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe collection 501", { channelId: "C0DEMO" });
    const first = await store().get("C0DEMO", "collection", 501);
    await bot.command("/decipher", "subscribe collection 501", { channelId: "C0DEMO" });
    expect(await lastReply(bot, "C0DEMO")).toMatch(/already watches/);
    expect(await store().get("C0DEMO", "collection", 501)).toEqual(first);
  });

  it("says not found for an unknown id and stores nothing", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 999999");
    expect(await lastReply(bot)).toMatch(/no test 999999 \(not found\)/);
    expect(await store().get("C0ALERTS", "test", 999999)).toBeNull();
  });

  it("keeps organizations apart: another org's test is not found", async () => {
    const bot = createBot({ apiKey: await newOrg("globex") });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    expect(await lastReply(bot, "C0GENERAL")).toMatch(/not found/);
  });

  it("lists and unsubscribes, per channel", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0GENERAL" });
    const list = JSON.parse((await bot.command("/decipher", "list", { channelId: "C0GENERAL" })).body);
    expect(visibleText(list)).toMatch(/#102/);
    const other = JSON.parse((await bot.command("/decipher", "list", { channelId: "C0DEMO" })).body);
    expect(visibleText(other)).not.toMatch(/#102/);
    const gone = JSON.parse(
      (await bot.command("/decipher", "unsubscribe test 102", { channelId: "C0GENERAL" })).body,
    );
    expect(visibleText(gone)).toMatch(/Unsubscribed/);
    expect(await store().get("C0GENERAL", "test", 102)).toBeNull();
  });

  it("sets a digest for later, never sending one at once", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const ack = JSON.parse((await bot.command("/decipher", "digest 09:30 Europe/Berlin")).body);
    expect(visibleText(ack)).toMatch(/09:30/);
    const list = JSON.parse((await bot.command("/decipher", "list")).body);
    expect(visibleText(list)).toMatch(/09:30/);
    expect((await bot.messages()).filter((m) => !m.ephemeral)).toEqual([]);
  });

  it("lets only admins change subscriptions when ADMIN_USER_IDS is set", async () => {
    const bot = createBot({ apiKey: await newOrg(), adminUserIds: "U0ALICE" });
    const refused = JSON.parse(
      (await bot.command("/decipher", "subscribe test 101", { userId: "U0BOB" })).body,
    );
    expect(visibleText(refused)).toMatch(/Only the bot's admins/);
    expect(await store().get("C0ALERTS", "test", 101)).toBeNull();
    const list = JSON.parse((await bot.command("/decipher", "list", { userId: "U0BOB" })).body);
    expect(visibleText(list)).toMatch(/watches nothing/);
  });

  it("explains bad subcommands and shows help", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    expect(visibleText(JSON.parse((await bot.command("/decipher", "subscribe test abc")).body))).toMatch(
      /not a test id/,
    );
    expect(visibleText(JSON.parse((await bot.command("/decipher", "help")).body))).toMatch(/digest/);
  });

  it("answers help, and a command it does not know, with the help as ephemeral JSON, the same each time", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    const first = await bot.command("/decipher", "help");
    const again = await bot.command("/decipher", "help");
    const unknown = await bot.command("/decipher-renamed", "anything");
    for (const ack of [first, again, unknown]) {
      expect(ack.status).toBe(200);
      expect(ack.headers.get("content-type")).toBe("application/json;charset=utf-8");
      const body = JSON.parse(ack.body);
      expect(body.response_type).toBe("ephemeral");
      expect(visibleText(body)).toMatch(/\/decipher subscribe/);
    }
    expect(again.body).toBe(first.body);
    expect(unknown.body).toBe(first.body);
  });

  it("shows status with the last error of each subscription", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 103");
    const status = JSON.parse((await bot.command("/decipher", "status")).body);
    // Polling that works says nothing; trouble would be named under the test.
    expect(visibleText(status)).toMatch(/#103/);
    expect(visibleText(status)).not.toMatch(/polling failed|checking since/);
  });
});

describe("when Slack's auth.test misbehaves", () => {
  it("still answers commands when auth.test fails for a passing reason", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.slackFault("auth.test", "500", 5);
    const ack = await bot.command("/decipher", "help");
    expect(ack.status).toBe(200);
    expect(visibleText(JSON.parse(ack.body))).toMatch(/subscribe/);
  });

  it("tells the person when Slack rejects the bot token", async () => {
    const bot = createBot({ apiKey: await newOrg(), botToken: "xoxb-revoked-for-this-test" });
    const ack = await bot.command("/decipher", "help");
    expect(ack.status).toBe(200);
    expect(visibleText(JSON.parse(ack.body))).toMatch(/rejected this bot's token/);
    expect(ack.body).not.toContain("xoxb-revoked-for-this-test");
  });
});
