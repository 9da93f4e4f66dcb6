import { isRecord } from "../../util/checks.ts";
import { directMessageOf } from "../mentions/direct-message.ts";
import { isEventType } from "./event-types.ts";

const ID = /^[A-Za-z0-9._-]{1,100}$/;
const id = (v: unknown): string | null => (typeof v === "string" && ID.test(v) ? v : null);

/** An envelope the bot acts on: its event, and the ids the event gate keys on. */
export type HandledEnvelope = { eventId: string; teamId: string };

/** What to do with a signed JSON body (the Events API): answer it here, or hand it to the Slack app. */
export type EnvelopeRoute = { answer: Response } | { dispatch: HandledEnvelope };

const empty = () => ({ answer: new Response(null, { status: 200 }) });
const malformed = () => ({ answer: new Response("malformed event", { status: 400 }) });

/**
 * The workspace an event belongs to. An org-wide install may send `context_team_id` or only
 * the enterprise; events of an org-level install itself (`tokens_revoked`, `app_uninstalled`,
 * `team_access_granted`) carry no team at all, which is fine: the bot does not act on those.
 */
/** The installation (team, bot user) Slack delivers an event to: its `authorizations`' first. */
export function eventAuthorization(body: Record<string, unknown>): Record<string, unknown> | null {
  const first = Array.isArray(body.authorizations) ? body.authorizations[0] : undefined;
  return isRecord(first) ? first : null;
}

export function eventTeam(body: Record<string, unknown>): string | null {
  const authorization = eventAuthorization(body);
  // In a channel shared with another organization, `team_id` may name the other one; the
  // installation Slack delivers the event to is the one in `authorizations` (Bolt's reading).
  // Its event gate, cache and data are that installation's.
  return (
    (authorization ? id(authorization.team_id) : null) ??
    id(body.team_id) ??
    id(body.context_team_id) ??
    id(body.enterprise_id)
  );
}

/**
 * Runs after the signature check (src/handlers/slack-edge.ts), on the parsed body. Slack
 * retries anything but a 2xx, and an event nobody listens to would find no listener, so here:
 * - `url_verification` gets its challenge back;
 * - an event type the bot does not handle (whatever else the envelope lacks, a team_id
 *   included), a `message` that is no person's words in a DM (an edit, a bot's post: the bot's
 *   own answers would loop), and any other envelope (`app_rate_limited`), gets an empty 200 and
 *   no work;
 * - so does an event it handles without an event_id to deduplicate it by or a workspace to
 *   act in: run, its retries could run it twice; refused, Slack would retry it in vain;
 * - a JSON object that is no Events API envelope (no type, an event without a type) gets an
 *   empty 200 too: Slack never sends one, and should a new shape of Slack's come, a 2xx keeps
 *   Slack from retrying it; only a body that is no JSON object gets 400;
 * - a handled event goes on to the Slack app, with its ids.
 */
export function routeEnvelope(body: unknown): EnvelopeRoute {
  if (!isRecord(body)) return malformed();
  if (body.type === "url_verification") {
    if (typeof body.challenge !== "string" || body.challenge.length > 500) return malformed();
    return { answer: Response.json({ challenge: body.challenge }) };
  }
  if (body.type === "event_callback") {
    const event = body.event;
    if (!isRecord(event) || typeof event.type !== "string" || !isEventType(event.type)) return empty();
    if (event.type === "message" && !directMessageOf(event)) return empty();
    const eventId = id(body.event_id);
    const teamId = eventTeam(body);
    if (!eventId || !teamId) return empty();
    return { dispatch: { eventId, teamId } };
  }
  return empty();
}
