/**
 * OAuth `state` values that cost nothing until used: the expiry and a random nonce, signed with
 * HMAC-SHA-256 under the app's client secret. /slack/install hands one out without writing
 * anything (an unauthenticated page anyone can load); the redirect checks the signature and the
 * expiry, and only then records the nonce as used (src/objects/install-state-object.ts).
 */

const encoder = new TextEncoder();
const SHAPE = /^([0-9a-z]{1,12})\.([0-9a-f]{32})\.([0-9a-f]{64})$/;

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

async function mac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return hex(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
}

/** Compares two hex strings of equal length in time that does not depend on where they differ. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export async function signState(secret: string, now: number, ttlMs: number): Promise<string> {
  const body = `${(now + ttlMs).toString(36)}.${hex(crypto.getRandomValues(new Uint8Array(16)))}`;
  return `${body}.${await mac(secret, body)}`;
}

/** The state's nonce and expiry when it is ours and has not expired; null for anything else. */
export async function verifyState(
  secret: string,
  state: string,
  now: number,
): Promise<{ nonce: string; expiresAt: number } | null> {
  const match = SHAPE.exec(state);
  if (!match) return null;
  const [, expiry = "", nonce = "", signature = ""] = match;
  if (!sameHex(await mac(secret, `${expiry}.${nonce}`), signature)) return null;
  const expiresAt = Number.parseInt(expiry, 36);
  return expiresAt > now ? { nonce, expiresAt } : null;
}
