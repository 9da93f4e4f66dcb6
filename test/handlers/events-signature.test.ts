import { describe, expect, it } from "vitest";
import { createBot, signingSecret } from "../../dev/in-workerd/bot.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { MAX_BODY_BYTES } from "../../src/handlers/signed-request.ts";

const body = new URLSearchParams({
  command: "/decipher",
  text: "help",
  channel_id: "C0ALERTS",
  user_id: "U0ALICE",
  response_url: "http://127.0.0.1:9/never-called",
}).toString();

function request(headers: Record<string, string>, payload = body) {
  return new Request("http://bot.test/slack/events", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: payload,
  });
}

describe("POST /slack/events screens", () => {
  const bot = createBot({ apiKey: "dcp_never_used" });
  const now = () => Math.floor(Date.now() / 1000);

  it("answers a correctly signed command", async () => {
    const res = await bot.send(request(await signSlackRequest(signingSecret, body, now())));
    expect(res.status).toBe(200);
    expect(res.body).toContain("subscribe");
  });

  it.each([
    ["no signature at all", async () => ({})],
    ["a signature made with another secret", () => signSlackRequest("not-the-secret", body, now())],
    ["a timestamp six minutes old", () => signSlackRequest(signingSecret, body, now() - 360)],
    ["a timestamp six minutes in the future", () => signSlackRequest(signingSecret, body, now() + 360)],
    [
      "a signature over a different body",
      async () => signSlackRequest(signingSecret, body.replace("help", "list"), now()),
    ],
    [
      "a malformed signature header",
      async () => ({ "X-Slack-Request-Timestamp": String(now()), "X-Slack-Signature": "v0=zz" }),
    ],
  ])("rejects %s with 401 and calls nobody", async (_, headers) => {
    const untouched = createBot({ apiKey: "dcp_never_used" });
    const res = await untouched.send(request((await headers()) as Record<string, string>));
    expect(res.status).toBe(401);
    expect(await untouched.slackCalls()).toEqual([]);
  });

  it("refuses oversized bodies", async () => {
    const huge = `${body}&pad=${"x".repeat(MAX_BODY_BYTES + 44 * 1024)}`;
    const res = await bot.send(request(await signSlackRequest(signingSecret, huge, now()), huge));
    expect(res.status).toBe(413);
  });

  it("never echoes configuration on 404", async () => {
    const res = await bot.send(new Request("http://bot.test/nope"));
    expect(res.status).toBe(404);
    expect(res.body).not.toContain(signingSecret);
  });
});
