import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, signingSecret } from "../../dev/in-workerd/bot.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { MAX_BODY_BYTES } from "../../src/handlers/signed-request.ts";

// The signature decides first: an unsigned or badly signed request gets 401 whatever its
// body is — before anything parses it as a form or JSON, and with no other work done.

const now = () => Math.floor(Date.now() / 1000);
const FORM = "application/x-www-form-urlencoded";

const bodies: Array<[string, string, string]> = [
  ["a malformed form", "%%%&&==&%zz=%E0%A4%A", FORM],
  ["a payload that is not JSON", "payload=%7B%22type%22%3A", FORM],
  ["a payload that is a JSON array", `payload=${encodeURIComponent("[1,2,3]")}`, FORM],
  ["malformed JSON", '{"type": "block_actions", ', "application/json"],
  ["a JSON array", "[]", "application/json"],
  [
    "a huge body just under the limit",
    `command=%2Fdecipher&text=list&pad=${"x".repeat(MAX_BODY_BYTES - 100)}`,
    FORM,
  ],
  ["a wrong content type", "<xml>not slack</xml>", "text/xml"],
  ["binary bytes", "\u0000\u0001\u00ff\u00fe", "application/octet-stream"],
  ["an empty body", "", FORM],
];

async function freshBot() {
  const apiKey = await newOrg();
  return { bot: createBot({ apiKey }), ctl: emulator.org(apiKey) };
}

function request(body: BodyInit, contentType: string, headers: Record<string, string>) {
  return new Request("http://bot.test/slack/events", {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body,
  });
}

/** Headers that look right but sign something else (or with another secret). */
const forged = async (body: string) => signSlackRequest("not-the-signing-secret", body, now());

describe("signature first", () => {
  it.each(bodies)("unsigned, with %s: 401", async (_label, body, type) => {
    const { bot, ctl } = await freshBot();
    const res = await bot.send(request(body, type, {}));
    expect(res.status).toBe(401);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
    expect(await bot.slackCalls()).toEqual([]);
    expect((await ctl.requests()).total).toBe(0);
  });

  it.each(bodies)("signed with the wrong secret, with %s: 401", async (_label, body, type) => {
    const { bot, ctl } = await freshBot();
    const res = await bot.send(request(body, type, await forged(body)));
    expect(res.status).toBe(401);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
    expect(await bot.slackCalls()).toEqual([]);
    expect((await ctl.requests()).total).toBe(0);
  });

  it.each(bodies)("a signature over another body, with %s: 401", async (_label, body, type) => {
    const { bot } = await freshBot();
    const headers = await signSlackRequest(signingSecret, "command=%2Fdecipher&text=help", now());
    const res = await bot.send(request(body, type, headers));
    expect(res.status).toBe(401);
  });

  it.each([
    ["no signature header", { "x-slack-request-timestamp": String(now()) }, false],
    [
      "a signature of the wrong shape",
      { "x-slack-request-timestamp": String(now()), "x-slack-signature": "v1=abc" },
      false,
    ],
    ["no timestamp", { "x-slack-signature": `v0=${"0".repeat(64)}` }, false],
    [
      "a timestamp that is not a number",
      { "x-slack-request-timestamp": "soon", "x-slack-signature": `v0=${"0".repeat(64)}` },
      false,
    ],
    // Control: a well-formed signature is checked over the raw bytes, so those are read (not parsed).
    [
      "a well-formed but wrong signature",
      { "x-slack-request-timestamp": String(now()), "x-slack-signature": `v0=${"0".repeat(64)}` },
      true,
    ],
  ] as Array<[string, Record<string, string>, boolean]>)(
    "with %s: 401, body read: %s",
    async (_label, headers, read) => {
      const { bot } = await freshBot();
      let pulled = false;
      // No eager pull: the source is asked for bytes only when someone reads the body.
      const stream = new ReadableStream(
        {
          pull(controller) {
            pulled = true;
            controller.enqueue(new TextEncoder().encode("payload=%7Bbroken"));
            controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      const res = await bot.send(
        new Request("http://bot.test/slack/events", {
          method: "POST",
          headers: { "content-type": FORM, ...headers },
          body: stream,
          duplex: "half",
        } as RequestInit),
      );
      expect(res.status).toBe(401);
      expect(pulled).toBe(read);
    },
  );

  it("a validly signed request with a stale timestamp: 401, whatever the body", async () => {
    const { bot } = await freshBot();
    const body = "payload=%7Bbroken";
    const headers = await signSlackRequest(signingSecret, body, now() - 600);
    expect((await bot.send(request(body, FORM, headers))).status).toBe(401);
  });

  it("the same malformed bodies, validly signed, get 400 (so it is the signature that answered 401)", async () => {
    const { bot } = await freshBot();
    for (const body of ["payload=%7B%22type%22%3A", `payload=${encodeURIComponent("[1,2,3]")}`]) {
      const res = await bot.send(request(body, FORM, await signSlackRequest(signingSecret, body, now())));
      expect(res.status).toBe(400);
    }
    const json = '{"type": "block_actions", ';
    const res = await bot.send(
      request(json, "application/json", await signSlackRequest(signingSecret, json, now())),
    );
    expect(res.status).toBe(400);
  });
});
