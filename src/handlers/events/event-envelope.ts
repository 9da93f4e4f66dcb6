import type { MiddlewareHandler } from "hono";
import { isRecord } from "../../util/checks.ts";
import { rawText } from "../signed-request.ts";
import { isEventType } from "./event-types.ts";

const ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Runs before slack-edge for JSON bodies (the Events API), after the timestamp, size and
 * signature screens (../signed-request.ts), so an unsigned request has already had its 401.
 * slack-edge would answer an event nobody listens to with a 404 (and log the whole body), and
 * an `event_callback` without an event the same way. Here, once the signature holds:
 * - `url_verification` gets its challenge back;
 * - a malformed envelope (no event, event type or event_id) gets 400;
 * - an event type the bot does not handle, or another envelope (`app_rate_limited`), gets an
 *   empty 200 and no other work.
 */
export function screenEventEnvelope(): MiddlewareHandler {
  return async (c, next) => {
    if (!(c.req.header("content-type") ?? "").includes("application/json")) return next();
    const raw = await rawText(c.req.raw);
    // An object: screenSlackBody refused anything else.
    const body = JSON.parse(raw) as Record<string, unknown>;
    if (body.type === "url_verification") {
      if (typeof body.challenge !== "string" || body.challenge.length > 500)
        return c.text("malformed event", 400);
      return c.json({ challenge: body.challenge });
    }
    if (body.type === "event_callback") {
      const event = body.event;
      if (
        !isRecord(event) ||
        typeof event.type !== "string" ||
        typeof body.event_id !== "string" ||
        !ID.test(body.event_id) ||
        typeof body.team_id !== "string" ||
        !ID.test(body.team_id)
      ) {
        return c.text("malformed event", 400);
      }
      if (!isEventType(event.type)) return c.body(null, 200);
      return next();
    }
    if (typeof body.type === "string") return c.body(null, 200);
    return c.text("malformed event", 400);
  };
}
