// The sender's half of Slack's request signing. Web Crypto only, so the same module runs in
// Node (the stand-in) and in workerd (tests that build signed requests to the bot).

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares without an early exit, so timing says nothing about how much matched. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Slack's signature of a request: `v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`. */
export async function slackSignature(
  secret: string,
  timestamp: string,
  body: ArrayBuffer | string,
): Promise<string> {
  const hmac = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const bytes = typeof body === "string" ? encoder.encode(body) : new Uint8Array(body);
  const base = new Uint8Array([...encoder.encode(`v0:${timestamp}:`), ...bytes]);
  return `v0=${hex(await crypto.subtle.sign("HMAC", hmac, base))}`;
}

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
