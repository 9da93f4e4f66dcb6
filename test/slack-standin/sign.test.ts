import { describe, expect, it } from "vitest";
import { signSlackRequest, verifySlackSignature } from "../../dev/slack/sign.ts";

// The example from Slack's "Verifying requests from Slack" guide; the expected signature was
// recomputed independently with `openssl dgst -sha256 -hmac`.
const secret = "8f742231b10e8888abcd99yyyzzz85a5";
const timestamp = 1531420618;
const body =
  "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V" +
  "&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=" +
  "&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN" +
  "&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";

describe("signSlackRequest", () => {
  it("reproduces the signature in Slack's documentation", async () => {
    expect(await signSlackRequest(secret, body, timestamp)).toEqual({
      "X-Slack-Request-Timestamp": "1531420618",
      "X-Slack-Signature": "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
    });
  });

  it("signs the body byte for byte: one changed character changes the signature", async () => {
    const a = await signSlackRequest(secret, body, timestamp);
    const b = await signSlackRequest(secret, `${body} `, timestamp);
    expect(b["X-Slack-Signature"]).not.toBe(a["X-Slack-Signature"]);
  });

  it("uses the current time when no timestamp is given", async () => {
    const before = Math.floor(Date.now() / 1000);
    const headers = await signSlackRequest(secret, body);
    expect(Number(headers["X-Slack-Request-Timestamp"])).toBeGreaterThanOrEqual(before);
  });
});

describe("verifySlackSignature", () => {
  const now = timestamp + 10;
  it("accepts a fresh, correct signature", async () => {
    const h = await signSlackRequest(secret, body, timestamp);
    const check = await verifySlackSignature(
      secret,
      body,
      h["X-Slack-Request-Timestamp"],
      h["X-Slack-Signature"],
      now,
    );
    expect(check).toEqual({ valid: true });
  });

  it("rejects a wrong secret, a stale or future timestamp, and missing headers", async () => {
    const h = await signSlackRequest(secret, body, timestamp);
    const ts = h["X-Slack-Request-Timestamp"];
    const sig = h["X-Slack-Signature"];
    expect((await verifySlackSignature("other", body, ts, sig, now)).valid).toBe(false);
    expect(await verifySlackSignature(secret, body, ts, sig, timestamp + 301)).toEqual({
      valid: false,
      reason: "stale timestamp",
    });
    expect((await verifySlackSignature(secret, body, ts, sig, timestamp - 301)).valid).toBe(false);
    expect((await verifySlackSignature(secret, body, null, sig, now)).valid).toBe(false);
  });
});
