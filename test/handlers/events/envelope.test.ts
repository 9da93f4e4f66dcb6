import { describe, expect, it } from "vitest";
import { createBot, newOrg, signingSecret } from "../../../dev/in-workerd/bot.ts";
import { signSlackRequest } from "../../../dev/slack/sign.ts";
import { envelope, eventsOf } from "../../helpers/events.ts";

async function setup() {
  const bot = createBot({ apiKey: await newOrg() });
  const events = eventsOf(bot);
  return { bot, events, team: await bot.team() };
}

describe("Events API envelope", () => {
  it("answers a signed url_verification with its challenge", async () => {
    const { events } = await setup();
    const res = await events.send({
      type: "url_verification",
      token: "t",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
  });

  it("refuses an unsigned, a wrongly signed and a stale url_verification with 401", async () => {
    const { bot, events } = await setup();
    const body = JSON.stringify({ type: "url_verification", challenge: "abc" });
    const unsigned = await bot.send(
      new Request("http://bot.test/slack/events", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      }),
    );
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).not.toContain("abc");
    const wrong = await events.sendJson(body, {}, "not-the-secret");
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toContain("abc");
    const stale = await bot.send(
      new Request("http://bot.test/slack/events", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(await signSlackRequest(signingSecret, body, Math.floor(Date.now() / 1000) - 600)),
        },
        body,
      }),
    );
    expect(stale.status).toBe(401);
  });

  it("acknowledges an event type it does not handle with an empty 200 and does nothing", async () => {
    const { bot, events, team } = await setup();
    const res = await events.send(
      envelope(team, { type: "reaction_added", user: "U0ALICE", reaction: "eyes" }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe("");
    expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
  });

  it("acknowledges other envelopes (app_rate_limited) with 200", async () => {
    const { events, team } = await setup();
    const res = await events.send({
      type: "app_rate_limited",
      team_id: team,
      minute_rate_limited: 1,
      api_app_id: "A0",
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ["no event", (t: string) => ({ ...envelope(t, { type: "app_mention" }), event: undefined })],
    ["an event without a type", (t: string) => ({ ...envelope(t, { type: "x" }), event: { text: "hi" } })],
    ["no envelope type", (t: string) => ({ ...envelope(t, { type: "app_mention" }), type: undefined })],
  ])(
    "acknowledges a JSON object that is no envelope (%s) with an empty 200 and does nothing",
    async (_name, make) => {
      const { bot, events, team } = await setup();
      const res = await events.send(make(team));
      expect([res.status, res.body]).toEqual([200, ""]);
      expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
      expect(bot.kv.reads + bot.kv.writes).toBe(0);
    },
  );

  it.each([
    ["tokens_revoked", { tokens: { oauth: ["UXXXXXXXX"], bot: ["UXXXXXXXX"] } }],
    ["team_access_granted", { team_ids: ["T0000000A", "T0000000B"] }],
    ["app_uninstalled", {}],
  ])(
    "acknowledges an org-level %s without a team_id with an empty 200 and does nothing",
    async (type, event) => {
      const { bot, events, team } = await setup();
      const res = await events.send({
        ...envelope(team, { type, ...event }),
        team_id: undefined,
        enterprise_id: "E0000000A",
        is_enterprise_install: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toBe("");
      expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
      expect(bot.kv.reads + bot.kv.writes).toBe(0);
    },
  );

  it.each([
    ["names no workspace at all", { team_id: undefined }],
    ["has no event_id to deduplicate it by", { event_id: undefined }],
    ["has an event_id that is not a string", { event_id: 42 }],
  ])(
    "ignores an event it handles when the envelope %s (200, no work, no retry from Slack)",
    async (_, change) => {
      const { bot, events, team } = await setup();
      const mention = { type: "app_mention", user: "U0ALICE", text: "<@U0BOT> help", channel: "C0ALERTS" };
      const res = await events.send({ ...envelope(team, mention), ...change });
      expect(res.status).toBe(200);
      expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
    },
  );

  it("answers a body that is not a JSON object with 400", async () => {
    const { events } = await setup();
    expect((await events.sendJson("[1,2]")).status).toBe(400);
    expect((await events.sendJson("{not json")).status).toBe(400);
  });
});
