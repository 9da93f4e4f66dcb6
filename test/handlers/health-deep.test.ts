import { describe, expect, it } from "vitest";
import { type Bot, createBot, newOrg, signingSecret, standIn } from "../../dev/in-workerd/bot.ts";
import { INSTALL_SCOPES } from "../../src/model/install-scopes.ts";
import { DOCTOR_CHECKS, deepRequest } from "../helpers/doctor.ts";

type Line = { check: string; ok: boolean; text: string; fix?: string };
type Deep = { ok: boolean; lines: Line[] };

const deepCheck = async (bot: Bot, secret = signingSecret) => bot.send(await deepRequest(secret));

const linesOf = (body: string) => (JSON.parse(body) as Deep).lines;
const line = (body: string, check: string) => linesOf(body).find((l) => l.check === check);

/** A bot with one subscription in #alerts whose clock has run once. */
async function subscribedBot(options: { apiKey?: string } = {}) {
  const bot = createBot({ apiKey: options.apiKey ?? (await newOrg()) });
  await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
  await bot.cron();
  return bot;
}

describe("GET /health/deep", () => {
  it("checks a working deployment as Slack and Decipher see it, one line each, all passing", async () => {
    const bot = await subscribedBot();
    const res = await deepCheck(bot);
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as Deep;
    expect(body.lines.map((l) => l.check)).toEqual(DOCTOR_CHECKS);
    expect(body.lines.filter((l) => !l.ok)).toEqual([]);
    expect(body.ok).toBe(true);
    expect(line(res.body, "channels")?.text).toMatch(/every channel with a subscription: 1$/);
    expect(line(res.body, "clocks")?.text).toMatch(
      /^the minute cron last ran at \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
    );
    expect(line(res.body, "daily budget")?.text).toMatch(/ % of the daily .* on the Free plan$/);
  });

  it("refuses an unsigned request, a wrong signing secret and another path's signature with 401, calling nobody", async () => {
    const bot = await subscribedBot();
    const before = (await bot.slackCalls()).length;
    const unsigned = await bot.send(new Request("http://bot.test/health/deep"));
    const wrongSecret = await deepCheck(bot, "not-the-signing-secret");
    const otherPath = await bot.send(await deepRequest(signingSecret, "/slack/events"));
    for (const res of [unsigned, wrongSecret, otherPath]) {
      expect(res.status).toBe(401);
      expect(res.body).not.toContain("lines");
    }
    expect((await bot.slackCalls()).length).toBe(before);
  });

  it("names a Decipher key that Decipher rejects, and what to do", async () => {
    const bot = await subscribedBot({ apiKey: "dcp_not_a_real_key" });
    const res = await deepCheck(bot);
    expect(JSON.parse(res.body).ok).toBe(false);
    expect(line(res.body, "Decipher key")).toEqual({
      check: "Decipher key",
      ok: false,
      text: "Decipher refused DECIPHER_API_KEY (401 authentication_error)",
      fix: expect.stringContaining("wrangler secret put DECIPHER_API_KEY"),
    });
    expect(res.body).not.toContain("dcp_not_a_real_key");
    expect(
      linesOf(res.body)
        .filter((l) => !l.ok)
        .map((l) => l.check),
    ).toEqual(["Decipher key"]);
  });

  it("names the scope a token was not granted, as Slack's x-oauth-scopes header says", async () => {
    const bot = await subscribedBot();
    const granted = INSTALL_SCOPES.split(",").filter((s) => s !== "links:write");
    await standIn.scopes(bot.botToken, granted);
    const res = await deepCheck(bot);
    expect(line(res.body, "Slack scopes")).toEqual({
      check: "Slack scopes",
      ok: false,
      text: "the token lacks links:write",
      fix: expect.stringContaining("Bot Token Scopes"),
    });
    expect(
      linesOf(res.body)
        .filter((l) => !l.ok)
        .map((l) => l.check),
    ).toEqual(["Slack scopes"]);
  });

  it("names a channel with a subscription that the bot was removed from", async () => {
    const bot = await subscribedBot();
    await bot.restrictChannel("not_in_channel");
    const res = await deepCheck(bot);
    expect(line(res.body, "channels")).toEqual({
      check: "channels",
      ok: false,
      text: "channel C0ALERTS: the bot is not a member",
      fix: "type `/invite @Decipher` in it",
    });
  });

  it("names a token Slack refuses", async () => {
    const bot = await subscribedBot();
    const refused = createBot({ apiKey: "k", botToken: "xoxb-revoked-doctor" });
    const res = await deepCheck({ ...bot, send: refused.send } as Bot);
    expect(line(res.body, "Slack token")).toEqual({
      check: "Slack token",
      ok: false,
      text: "auth.test failed: invalid_auth",
      fix: expect.stringContaining("wrangler secret put SLACK_BOT_TOKEN"),
    });
  });

  it("leaves plain /health as it was: public, no Slack or Decipher call", async () => {
    const bot = await subscribedBot();
    const before = (await bot.slackCalls()).length;
    const res = await bot.send(new Request("http://bot.test/health"));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ ok: true, subscriptions: 1 });
    expect(res.body).not.toContain("lines");
    expect((await bot.slackCalls()).length).toBe(before);
  });
});
