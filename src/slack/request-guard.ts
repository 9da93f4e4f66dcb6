import type { MiddlewareHandler } from "hono";

/** Slack's own rule: a request more than five minutes off, either way, may be a replay. */
export const MAX_CLOCK_SKEW_SECONDS = 300;
/** Slash commands and interaction payloads are small; anything near this is not from Slack. */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * Runs before slack-edge's signature check, which accepts future timestamps and any size.
 * Rejections do no other work and say nothing about why beyond the status.
 */
export function slackRequestGuard(now: () => number = Date.now): MiddlewareHandler {
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

/**
 * slack-edge throws on a body it cannot parse (a `payload` field that is not a JSON object),
 * which would surface as a 500. Such a body is the sender's mistake: 400, and no other work.
 * Runs after the size and timestamp checks, so it reads at most MAX_BODY_BYTES.
 */
export function slackBodyGuard(): MiddlewareHandler {
  return async (c, next) => {
    // Decoded by hand: workerd warns when .text() reads a form body.
    const raw = new TextDecoder().decode(await c.req.raw.clone().arrayBuffer());
    const type = c.req.header("content-type") ?? "";
    const isObject = (text: string) => {
      try {
        const value: unknown = JSON.parse(text);
        return typeof value === "object" && value !== null && !Array.isArray(value);
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
