import type { Authorize, AuthorizeResult } from "slack-edge";
// Not from slack-edge's index, which bundles all of slack-edge (src/handlers/lean-slack-app.ts).
import { AuthorizeError } from "slack-edge/dist/errors.js";
import type { SlackClient } from "../slack-api/slack-client.ts";
import { classifySlackFailure } from "../slack-api/slack-errors.ts";
import { withDeadline } from "../util/deadline.ts";
import { eventAuthorization } from "./events/event-envelope.ts";

type Cached = { result: AuthorizeResult; until: number };

const TTL_MS = 10 * 60 * 1000;
/** Per isolate, keyed by token so two tokens (tests, rotation) never share an answer. */
const byToken = new Map<string, Cached>();

/**
 * How long a request waits for `auth.test` before it goes on without the bot's ids: Slack
 * gives the whole ack 3 s, and the listener still has its own work to do after this.
 */
export const AUTH_TEST_WAIT_MS = 1000;

/**
 * What a request goes on with while Slack is slow or down: the token, and of the bot's ids only
 * what an event itself names (`authorizations`, the bot user it is delivered to), so that the
 * bot's own messages are still told apart (slack-edge's `ignoringSelfEvents`).
 */
function withoutIds(token: string, body: Record<string, unknown>): AuthorizeResult {
  const auth = eventAuthorization(body);
  const botUserId = auth?.is_bot === true && typeof auth.user_id === "string" ? auth.user_id : "";
  return { botToken: token, botId: "", botUserId, botScopes: [] };
}

async function lookUp(
  client: SlackClient,
  token: string,
  now: () => number,
  body: Record<string, unknown>,
): Promise<AuthorizeResult> {
  try {
    const response = await client.auth.test();
    const result: AuthorizeResult = {
      botToken: token,
      enterpriseId: response.enterprise_id,
      teamId: response.team_id,
      team: response.team,
      url: response.url,
      botId: response.bot_id ?? "",
      botUserId: response.user_id ?? "",
      userId: response.user_id,
      user: response.user,
      botScopes: (response.headers.get("x-oauth-scopes") ?? "").split(",").filter(Boolean),
    };
    byToken.set(token, { result, until: now() + TTL_MS });
    return result;
  } catch (error) {
    const failure = classifySlackFailure(error);
    // A rejected token is final: the person is told, and nothing else runs.
    if (failure.kind === "permanent" || failure.kind === "workspace")
      throw new AuthorizeError(`auth.test failed: ${failure.code}`);
    // Slack slow or down: answering the request matters more than the bot's own ids,
    // which no handler needs. Not cached, so the next request asks again.
    console.warn(`auth.test failed (${failure.code}); answering without it`);
    return withoutIds(token, body);
  }
}

/**
 * slack-edge's default `authorize` calls `auth.test` on slack.com for every request. This one
 * goes through the bot's own client (so `SLACK_API_URL` is honoured) and remembers the answer
 * for ten minutes, keeping `auth.test` off the ack path of warm isolates. On a cold one, or
 * ten minutes on, a request waits at most `waitMs` for it (a slow Slack, or a 429 whose
 * Retry-After the client waits out, would otherwise make the ack late) and then goes on
 * without the bot's ids; a lookup that answers later, while its request still runs, fills the
 * cache for the next one.
 */
export function cachedAuthorize(
  client: SlackClient,
  token: string,
  now: () => number = Date.now,
  waitMs = AUTH_TEST_WAIT_MS,
): Authorize {
  return async (req) => {
    const hit = byToken.get(token);
    if (hit && hit.until > now()) return hit.result;
    // Each request its own lookup: workerd ties a fetch to the request that made it, and a
    // promise shared with another request could hang it.
    return withDeadline(lookUp(client, token, now, req.body), waitMs, () => {
      console.warn(`auth.test slower than ${waitMs} ms; answering without it`);
      return withoutIds(token, req.body);
    });
  };
}
