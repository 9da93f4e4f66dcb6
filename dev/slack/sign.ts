import { sameText, slackSignature } from "../../src/handlers/signed-request.ts";

// The sender's half of Slack's request signing. Web Crypto only, so the same module runs in
// Node (the stand-in) and in workerd (tests that build signed requests to the bot).

export type SlackSignatureHeaders = {
  "X-Slack-Request-Timestamp": string;
  "X-Slack-Signature": string;
};

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`, exactly what Slack sends. */
export async function signSlackRequest(
  secret: string,
  body: string,
  timestampSeconds: number = Math.floor(Date.now() / 1000),
): Promise<SlackSignatureHeaders> {
  const timestamp = String(timestampSeconds);
  return {
    "X-Slack-Request-Timestamp": timestamp,
    "X-Slack-Signature": await slackSignature(secret, timestamp, body),
  };
}

export type SignatureCheck = { valid: true } | { valid: false; reason: string };

/** Receiver's check, used only by the stand-in's echo endpoint to prove what it sent. */
export async function verifySlackSignature(
  secret: string,
  body: string,
  timestamp: string | null | undefined,
  signature: string | null | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): Promise<SignatureCheck> {
  if (!timestamp || !signature) return { valid: false, reason: "missing signature headers" };
  const ts = Number(timestamp);
  if (!Number.isInteger(ts)) return { valid: false, reason: "malformed timestamp" };
  if (Math.abs(nowSeconds - ts) > 300) return { valid: false, reason: "stale timestamp" };
  const expected = await signSlackRequest(secret, body, ts);
  return sameText(expected["X-Slack-Signature"], signature)
    ? { valid: true }
    : { valid: false, reason: "signature mismatch" };
}
