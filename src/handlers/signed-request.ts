import type { Context, MiddlewareHandler } from "hono";
import { isRecord } from "../util/checks.ts";

/**
 * The screens: Hono middleware on `/slack/events` that turns a request away before any other
 * work, in this order: headers (here), size (Hono's bodyLimit), signature, body, and for the
 * Events API the envelope (events/event-envelope.ts).
 */

/** Slack's own rule: a request more than five minutes off, either way, may be a replay. */
export const MAX_CLOCK_SKEW_SECONDS = 300;
/** Slash commands and interaction payloads are small; anything near this is not from Slack. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Runs before slack-edge's signature check, which accepts future timestamps and any size.
 * Rejections do no other work and say nothing about why beyond the status.
 */
export function screenSlackHeaders(now: () => number = Date.now): MiddlewareHandler {
  return async (c, next) => {
    const timestamp = c.req.header("x-slack-request-timestamp");
    const signature = c.req.header("x-slack-signature");
    if (!timestamp || !signature || !/^\d{1,12}$/.test(timestamp) || !/^v0=[0-9a-f]{64}$/.test(signature)) {
      return c.text("invalid request signature", 401);
    }
    if (Math.abs(now() / 1000 - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
      return c.text("stale request", 401);
    }
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > MAX_BODY_BYTES) return c.text("request too large", 413);
    await next();
  };
}

const encoder = new TextEncoder();

const bodies = new WeakMap<Request, Promise<ArrayBuffer>>();
const texts = new WeakMap<Request, Promise<string>>();

/**
 * The request's body, read once for every screen (a copy: slack-edge reads the original). Each
 * clone and decode sits on the ack path, which is what Slack's 3 s clock waits on.
 */
export function rawBody(req: Request): Promise<ArrayBuffer> {
  let body = bodies.get(req);
  if (!body) {
    body = req.clone().arrayBuffer();
    bodies.set(req, body);
  }
  return body;
}

/** The body as text, decoded by hand once: workerd warns when `.text()` reads a form body. */
export function rawText(req: Request): Promise<string> {
  let text = texts.get(req);
  if (!text) {
    text = rawBody(req).then((bytes) => new TextDecoder().decode(bytes));
    texts.set(req, text);
  }
  return text;
}

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

/**
 * Slack's signature of a request: `v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`.
 * Web Crypto only, so the stand-in and the tests sign with it too (dev/slack/sign.ts).
 */
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

/**
 * Checks Slack's signature over the raw bytes before anything reads the body as a form or
 * JSON: an unsigned or badly signed request gets 401 whatever its body is, and causes no
 * other work. (slack-edge checks again; this one decides first.)
 */
export function screenSlackSignature(secret: (c: Context) => string): MiddlewareHandler {
  return async (c, next) => {
    const timestamp = c.req.header("x-slack-request-timestamp") ?? "";
    const signature = c.req.header("x-slack-signature") ?? "";
    let key: string;
    try {
      key = secret(c);
    } catch {
      // Configuration trouble is reported by the handler (and /health), not as a bad signature.
      await next();
      return;
    }
    const expected = await slackSignature(key, timestamp, await rawBody(c.req.raw));
    if (!sameText(expected, signature)) return c.text("invalid request signature", 401);
    await next();
  };
}

/**
 * slack-edge throws on a body it cannot parse (a `payload` field that is not a JSON object),
 * which would surface as a 500. Such a body is the sender's mistake: 400, and no other work.
 * Runs after the size and timestamp checks, so it reads at most MAX_BODY_BYTES.
 */
export function screenSlackBody(): MiddlewareHandler {
  return async (c, next) => {
    // Decoded by hand: workerd warns when .text() reads a form body.
    const raw = await rawText(c.req.raw);
    const type = c.req.header("content-type") ?? "";
    const isObject = (text: string) => {
      try {
        return isRecord(JSON.parse(text));
      } catch {
        return false;
      }
    };
    if (type.includes("application/json")) {
      if (!isObject(raw)) return c.text("malformed body", 400);
    } else {
      const payload = new URLSearchParams(raw).get("payload");
      if (payload !== null && !isObject(payload)) return c.text("malformed payload", 400);
    }
    await next();
  };
}
