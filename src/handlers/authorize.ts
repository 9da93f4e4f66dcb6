import type { Authorize, AuthorizeResult } from "slack-edge";
// Not from slack-edge's index, which bundles all of slack-edge (src/handlers/lean-slack-app.ts).
import { AuthorizeError } from "slack-edge/dist/errors.js";
import type { SlackClient } from "../slack-api/slack-client.ts";
import { classifySlackFailure } from "../slack-api/slack-errors.ts";

type Cached = { result: AuthorizeResult; until: number };

const TTL_MS = 10 * 60 * 1000;
/** Per isolate, keyed by token so two tokens (tests, rotation) never share an answer. */
const byToken = new Map<string, Cached>();

/**
 * slack-edge's default `authorize` calls `auth.test` on slack.com for every request. This one
 * goes through the bot's own client (so `SLACK_API_URL` is honoured) and remembers the answer
 * for ten minutes, keeping `auth.test` off the ack path of warm isolates.
 */
export function cachedAuthorize(client: SlackClient, token: string, now: () => number = Date.now): Authorize {
  return async () => {
    const hit = byToken.get(token);
    if (hit && hit.until > now()) return hit.result;
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
      const entry = { result, until: now() + TTL_MS };
      byToken.set(token, entry);
      return result;
    } catch (error) {
      const failure = classifySlackFailure(error);
      // A rejected token is final: the person is told, and nothing else runs.
      if (failure.kind === "permanent" || failure.kind === "workspace")
        throw new AuthorizeError(`auth.test failed: ${failure.code}`);
      // Slack slow or down: answering the command matters more than the bot's own ids,
      // which no handler needs. Not cached, so the next request asks again.
      console.warn(`auth.test failed (${failure.code}); answering without it`);
      return { botToken: token, botId: "", botUserId: "", botScopes: [] };
    }
  };
}
