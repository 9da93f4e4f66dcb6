import { SlackAPIConnectionError, SlackAPIError } from "slack-edge";

/**
 * How a failed Slack call should be treated:
 * - `permanent`: the channel or token is gone for good; pause what posts there.
 * - `transient`: rate limit, 5xx, network; try again next cycle.
 * - `rejected`: Slack refused this message (our bug); record it and try again later.
 */
export type SlackFailureKind = "permanent" | "transient" | "rejected";

export type SlackFailure = { kind: SlackFailureKind; code: string };

const PERMANENT = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
  "restricted_action",
  "team_access_not_granted",
]);

export function classifySlackFailure(error: unknown): SlackFailure {
  if (error instanceof SlackAPIError) {
    const code = String(error.error);
    if (PERMANENT.has(code)) return { kind: "permanent", code };
    if (
      code === "ratelimited" ||
      code === "internal_error" ||
      code === "fatal_error" ||
      code === "service_unavailable"
    )
      return { kind: "transient", code };
    return { kind: "rejected", code };
  }
  if (error instanceof SlackAPIConnectionError) {
    return { kind: "transient", code: error.status === 429 ? "ratelimited" : `http_${error.status}` };
  }
  return { kind: "transient", code: "network_error" };
}

/** A sentence for `/decipher status` and logs; Slack error codes are safe to show. */
export function describeSlackFailure({ code }: SlackFailure): string {
  switch (code) {
    case "channel_not_found":
      return "Slack says this channel no longer exists (channel_not_found).";
    case "not_in_channel":
      return "The bot is not a member of this channel (not_in_channel): invite it with /invite, then subscribe again.";
    case "is_archived":
      return "This channel is archived (is_archived).";
    case "invalid_auth":
    case "not_authed":
    case "token_revoked":
    case "token_expired":
    case "account_inactive":
      return `Slack rejected the bot's token (${code}): an admin needs to update SLACK_BOT_TOKEN.`;
    case "ratelimited":
      return "Slack rate-limited the bot; it will try again.";
    default:
      return `Slack answered ${code}.`;
  }
}
