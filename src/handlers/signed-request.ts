/** Slack's own rule: a request more than five minutes off, either way, may be a replay. */
export const MAX_CLOCK_SKEW_SECONDS = 300;
/**
 * A click on a Home tab or in a modal carries the whole view, every block of it, and comes
 * URL-encoded (about twice its JSON): a Home of 100 blocks, which the bot may publish, can pass
 * 256 KiB. Nothing Slack sends comes near this.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

/** A request whose signature held: its body as bytes and as text, each read once. */
export type SignedBody = { bytes: Uint8Array<ArrayBuffer>; text: string };

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const SIGNATURE = /^v0=([0-9a-f]{64})$/;
const TIMESTAMP = /^\d{1,12}$/;

/** Imported once per isolate and secret: importing is a large part of a verification's cost. */
const keys = new Map<string, Promise<CryptoKey>>();

export function signingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** The body, or null past `max` bytes (counted as it streams in when no length was declared). */
async function readWithin(req: Request, max: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (req.headers.has("content-length")) return new Uint8Array(await req.arrayBuffer());
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const refuse = (status: 401 | 413, text: string) => new Response(text, { status });

/**
 * Slack's signature check, stricter than slack-edge's, and the only one a request gets:
 * headers of the right shape, a timestamp at most five minutes off either way (slack-edge
 * accepts any future one), a body within MAX_BODY_BYTES (slack-edge reads any size), then
 * HMAC-SHA256 over `v0:<timestamp>:<raw body>` with `crypto.subtle.verify` (constant time).
 * A refusal is decided before anything parses the body, does no other work and says nothing
 * about why beyond its status; the body is not even read when the headers already fail.
 */
export async function readSignedRequest(
  req: Request,
  key: Promise<CryptoKey>,
  now: () => number = Date.now,
): Promise<SignedBody | Response> {
  const headers = signatureHeaders(req, now);
  if (headers instanceof Response) return headers;
  if (Number(req.headers.get("content-length") ?? "0") > MAX_BODY_BYTES)
    return refuse(413, "request too large");
  const bytes = await readWithin(req, MAX_BODY_BYTES);
  if (!bytes) return refuse(413, "request too large");
  if (!(await signedBy(key, headers, bytes))) return refuse(401, "invalid request signature");
  return { bytes, text: decoder.decode(bytes) };
}

/**
 * A bodiless request signed like Slack's, with the path in place of the body
 * (`v0:<timestamp>:<path>`), as `npm run doctor` signs `GET /health/deep` (tools/doctor.ts): the
 * signing secret proves the caller may make the Worker call Slack and Decipher, and a signature
 * made for one path is no use on another. Null when it holds, else the refusal.
 */
export async function refuseUnsignedPath(
  req: Request,
  key: Promise<CryptoKey>,
  now: () => number = Date.now,
): Promise<Response | null> {
  const headers = signatureHeaders(req, now);
  if (headers instanceof Response) return headers;
  const path = encoder.encode(new URL(req.url).pathname);
  return (await signedBy(key, headers, path)) ? null : refuse(401, "invalid request signature");
}

type SignatureHeaders = { timestamp: string; signature: string };

/** The two headers, of the right shape and at most five minutes off, or the refusal. */
function signatureHeaders(req: Request, now: () => number): SignatureHeaders | Response {
  const timestamp = req.headers.get("x-slack-request-timestamp") ?? "";
  const signature = SIGNATURE.exec(req.headers.get("x-slack-signature") ?? "")?.[1];
  if (!signature || !TIMESTAMP.test(timestamp)) return refuse(401, "invalid request signature");
  if (Math.abs(now() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS)
    return refuse(401, "stale request");
  return { timestamp, signature };
}

/** HMAC-SHA256 over `v0:<timestamp>:<bytes>`, compared in constant time by `crypto.subtle.verify`. */
async function signedBy(
  key: Promise<CryptoKey>,
  { timestamp, signature }: SignatureHeaders,
  bytes: Uint8Array,
) {
  const prefix = encoder.encode(`v0:${timestamp}:`);
  const signed = new Uint8Array(prefix.byteLength + bytes.byteLength);
  signed.set(prefix);
  signed.set(bytes, prefix.byteLength);
  return crypto.subtle.verify("HMAC", await key, hexBytes(signature), signed);
}

/** Slack's certificate check names nothing but these two fields (see isSslCheck). */
const SSL_CHECK = /^(?:ssl_check=1&token=[\w-]{1,200}|token=[\w-]{1,200}&ssl_check=1)$/;

/**
 * Slack's certificate check of a slash command's Request URL. Slack's documentation (the
 * slash command guide, "SSL") says Slack now and then sends the URL a request with
 * `ssl_check=1` to verify the certificate, which may be ignored but must get a 200. It comes
 * without Slack's signature headers, so it is recognised before the signature check, narrowly:
 * no Slack headers at all, a form body of at most 256 bytes (by its declared length, so an
 * unsigned body of unknown length is never read), holding exactly `ssl_check=1` and a token.
 * It gets an empty 200 and causes no other work; anything else unsigned still gets 401.
 */
export async function isSslCheck(req: Request): Promise<boolean> {
  if (req.headers.has("x-slack-signature") || req.headers.has("x-slack-request-timestamp")) return false;
  if (!(req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return false;
  const length = Number(req.headers.get("content-length") ?? "-1");
  if (!(length > 0 && length <= 256)) return false;
  return SSL_CHECK.test(decoder.decode(await req.arrayBuffer()));
}
