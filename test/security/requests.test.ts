import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, signingSecret, standIn } from "../../dev/in-workerd/bot.ts";
import { clickFor, madeUpControl } from "../../dev/slack/payloads.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { MAX_BODY_BYTES } from "../../src/handlers/signed-request.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";

/**
 * What an attacker can send to `/slack/events`: replays, altered signatures, huge or oddly
 * typed bodies, and tampered button values. Everything is rejected or harmless: no 5xx, no
 * Slack call, no KV write, no vendor request it should not cause.
 */
const store = () => new SubscriptionStore(env.STATE);
const now = () => Math.floor(Date.now() / 1000);

async function freshBot() {
  const apiKey = await newOrg();
  return { bot: createBot({ apiKey }), org: emulator.org(apiKey), apiKey };
}

function commandBody(text: string, channelId = "C0ALERTS") {
  return new URLSearchParams({
    command: "/decipher",
    text,
    channel_id: channelId,
    user_id: "U0ALICE",
    team_id: "T0TEST",
    response_url: "http://127.0.0.1:9/never-called",
  }).toString();
}

function post(body: BodyInit, headers: Record<string, string>) {
  return new Request("http://bot.test/slack/events", { method: "POST", headers, body });
}

describe("signatures", () => {
  it("rejects a captured request replayed after the five-minute window", async () => {
    const { bot } = await freshBot();
    const body = commandBody("list");
    const old = now() - 301;
    const res = await bot.send(
      post(body, {
        "content-type": "application/x-www-form-urlencoded",
        ...(await signSlackRequest(signingSecret, body, old)),
      }),
    );
    expect(res.status).toBe(401);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
    expect(await bot.slackCalls()).toEqual([]);
  });

  it("treats a replay inside the window as the same idempotent command (Slack's model: no nonce)", async () => {
    const { bot, org } = await freshBot();
    const first = await bot.command("/decipher", "subscribe test 101");
    expect(first.status).toBe(200);
    const saved = await store().get("C0ALERTS", "test", 101);
    const before = (await org.requests()).total;
    const again = await bot.command("/decipher", "subscribe test 101");
    expect(again.status).toBe(200);
    expect(await store().get("C0ALERTS", "test", 101)).toEqual(saved);
    // Nothing subscribed again: at most the one read of runs its reply's "Now:" says.
    expect((await org.requests()).total - before).toBeLessThanOrEqual(1);
  });

  it.each([
    ["one hex digit of the signature flipped", (h: Record<string, string>) => flip(h, "X-Slack-Signature")],
    [
      "the timestamp moved by one second",
      (h: Record<string, string>) => ({
        ...h,
        "X-Slack-Request-Timestamp": String(Number(h["X-Slack-Request-Timestamp"]) + 1),
      }),
    ],
    [
      "a v1= signature",
      (h: Record<string, string>) => ({
        ...h,
        "X-Slack-Signature": (h["X-Slack-Signature"] ?? "").replace("v0=", "v1="),
      }),
    ],
    [
      "an upper-cased signature",
      (h: Record<string, string>) => ({
        ...h,
        "X-Slack-Signature": (h["X-Slack-Signature"] ?? "").toUpperCase(),
      }),
    ],
    ["a negative timestamp", (h: Record<string, string>) => ({ ...h, "X-Slack-Request-Timestamp": "-1" })],
  ])("rejects %s with 401 and does nothing", async (_, alter) => {
    const { bot } = await freshBot();
    const body = commandBody("list");
    const headers = alter({ ...(await signSlackRequest(signingSecret, body, now())) } as Record<
      string,
      string
    >);
    const res = await bot.send(
      post(body, { "content-type": "application/x-www-form-urlencoded", ...headers }),
    );
    expect(res.status).toBe(401);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
  });

  it("rejects a body altered after signing (channel swapped)", async () => {
    const { bot } = await freshBot();
    const body = commandBody("unsubscribe test 101", "C0ALERTS");
    const headers = await signSlackRequest(signingSecret, body, now());
    const res = await bot.send(
      post(body.replace("C0ALERTS", "C0GENERAL"), {
        "content-type": "application/x-www-form-urlencoded",
        ...headers,
      }),
    );
    expect(res.status).toBe(401);
    expect(bot.kv.writes + bot.kv.deletes).toBe(0);
  });
});

function flip(h: Record<string, string>, name: string) {
  const sig = h[name] ?? "";
  const last = sig.at(-1) === "0" ? "1" : "0";
  return { ...h, [name]: `${sig.slice(0, -1)}${last}` };
}

describe("bodies and content types", () => {
  it("refuses a signed oversized body that declares its length", async () => {
    const { bot } = await freshBot();
    const body = `${commandBody("list")}&pad=${"x".repeat(MAX_BODY_BYTES + 44 * 1024)}`;
    const res = await bot.send(
      post(body, {
        "content-type": "application/x-www-form-urlencoded",
        ...(await signSlackRequest(signingSecret, body, now())),
      }),
    );
    expect(res.status).toBe(413);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
  });

  it("refuses an oversized streamed body without a content-length", async () => {
    const { bot } = await freshBot();
    const body = `${commandBody("list")}&pad=${"x".repeat(MAX_BODY_BYTES + 144 * 1024)}`;
    const bytes = new TextEncoder().encode(body);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.slice(i, i + 16 * 1024));
        controller.close();
      },
    });
    const headers = await signSlackRequest(signingSecret, body, now());
    const res = await bot.send(
      new Request("http://bot.test/slack/events", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(bot.kv.writes).toBe(0);
  });

  it.each([
    [
      "application/json",
      JSON.stringify({ command: "/decipher", text: "unsubscribe test 101", channel_id: "C0ALERTS" }),
    ],
    ["text/plain", commandBody("unsubscribe test 101")],
    [
      "multipart/form-data; boundary=x",
      `--x\r\nContent-Disposition: form-data; name="text"\r\n\r\nlist\r\n--x--`,
    ],
    ["application/xml", "<command>/decipher</command>"],
    ["", commandBody("unsubscribe test 101")],
  ])("a correctly signed %s body is harmless: no 5xx, no other channel touched", async (type, body) => {
    // slack-edge reads a signed body whatever its declared type (the signature, not the
    // header, says it came from Slack), so a JSON or text/plain copy of a command may run as
    // that command — in the channel it names, which is what the signer asked for.
    const { bot } = await freshBot();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    const saved = await store().get("C0GENERAL", "test", 101);
    const headers: Record<string, string> = { ...(await signSlackRequest(signingSecret, body, now())) };
    if (type) headers["content-type"] = type;
    const res = await bot.send(post(body, headers));
    expect(res.status).toBeLessThan(500);
    expect(await store().get("C0GENERAL", "test", 101)).toEqual(saved);
    expect(await bot.alertPosts()).toEqual([]);
  });

  it.each(["application/json", "text/plain", "multipart/form-data; boundary=x"])(
    "an unsigned %s body gets 401 and does nothing",
    async (type) => {
      const { bot } = await freshBot();
      const res = await bot.send(post(commandBody("unsubscribe test 101"), { "content-type": type }));
      expect(res.status).toBe(401);
      expect(bot.kv.reads + bot.kv.writes + bot.kv.deletes).toBe(0);
    },
  );
});

describe("tampered buttons and other channels", () => {
  async function clickWith(
    bot: ReturnType<typeof createBot>,
    actionId: string,
    value: string,
    channelId: string,
  ) {
    // Bob plays the attacker: the stand-in mints response_urls for the users it knows.
    const body = clickFor({
      teamId: "T0TEST",
      channelId,
      userId: "U0BOB",
      userName: "bob",
      responseUrl: await standIn.responseUrl(bot.botToken, channelId, "U0BOB"),
      messageTs: "1732200000.000100",
      ephemeral: true,
      button: madeUpControl(actionId, value),
    });
    return bot.signedPost(body);
  }

  it.each([
    ["session_share", '["sub:C0GENERAL:test:101"]'],
    [
      "session_share",
      JSON.stringify([
        1,
        "00000000-0000-4000-8000-000000000000",
        "x",
        null,
        null,
        null,
        null,
        null,
        null,
        1,
        "C0GENERAL",
      ]),
    ],
    ["sessions_more", JSON.stringify({ v: 1, q: { userEmail: "a@b.c", channel: "C0GENERAL" }, c: "x" })],
    ["session_timeline", "../../tests/101/runs"],
    ["session_clicks", "sub:C0GENERAL:test:101"],
    ["unsubscribe", "sub:C0GENERAL:test:101"],
    ["run_open", "sub:C0GENERAL:test:101"],
  ])("%s with value %s cannot touch another channel's subscription", async (actionId, value) => {
    const { bot } = await freshBot();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    const saved = await store().get("C0GENERAL", "test", 101);
    const postsBefore = (await bot.posted("C0GENERAL")).length;
    const writesBefore = bot.kv.writes + bot.kv.deletes;
    const res = await clickWith(bot, actionId, value, "C0ALERTS");
    expect(res.status).toBeLessThan(500);
    expect(await store().get("C0GENERAL", "test", 101)).toEqual(saved);
    expect((await bot.posted("C0GENERAL")).length).toBe(postsBefore);
    expect(bot.kv.writes + bot.kv.deletes).toBe(writesBefore);
  });

  it("/decipher in one channel never changes another channel's subscriptions", async () => {
    const { bot } = await freshBot();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    const saved = await store().get("C0GENERAL", "test", 101);
    for (const text of [
      "unsubscribe test 101",
      "unsubscribe test sub:C0GENERAL:test:101",
      "unsubscribe test 101 C0GENERAL",
      "digest off",
      "unsubscribe collection 101",
    ]) {
      const res = await bot.command("/decipher", text, { channelId: "C0ALERTS" });
      expect(res.status).toBe(200);
    }
    expect(await store().get("C0GENERAL", "test", 101)).toEqual(saved);
    expect(await store().listForChannel("C0GENERAL")).toHaveLength(1);
  });

  it("a share click posts only in the channel Slack says it came from", async () => {
    const { bot } = await freshBot();
    const value = JSON.stringify([
      1,
      "00000000-0000-4000-8000-000000000000",
      "2026-01-01T00:00:00.000Z",
      10,
      "a@b.c",
      null,
      null,
      null,
      null,
      0,
    ]);
    await clickWith(bot, "session_share", value, "C0ALERTS");
    const posts = (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage");
    for (const p of posts) expect((p.params as { channel?: string }).channel).toBe("C0ALERTS");
  });
});
