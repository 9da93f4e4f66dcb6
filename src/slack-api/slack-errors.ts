import type { SlackAPIConnectionError, SlackAPIError } from "slack-edge";
import { BudgetExhaustedError } from "../util/subrequest-budget.ts";
import { MALFORMED_ANSWER, SlackTimeoutError } from "./slack-client.ts";

/**
 * How a failed Slack call should be treated:
 * - `permanent`: this channel is gone or closed to the bot; pause what posts there.
 * - `workspace`: the token or the app's scopes are refused. It concerns every channel and is
 *   often passing (a rotation, a bad deploy): retry with backoff, never pause.
 * - `transient`: rate limit, 5xx, network; try again next cycle.
 * - `rejected`: Slack refused this message (our bug); record it and try again later.
 * - `unknown`: no answer in time; Slack may have done it, so it must not be repeated blindly.
 * - `deferred`: this invocation had no subrequests left; the call was not made.
 */
export type SlackFailureKind = "permanent" | "workspace" | "transient" | "rejected" | "unknown" | "deferred";

export type SlackFailure = {
  kind: SlackFailureKind;
  code: string;
  /** Slack's detail lines of a refusal (`response_metadata.messages`), e.g. which block and why. */
  detail?: readonly string[];
  /** Slack's `Retry-After` on a 429: no call to it before these seconds have passed. */
  retryAfterSeconds?: number;
};

/**
 * Channel-level refusals: only these pause a subscription. A posting restriction is the
 * channel's, even `restricted_action` (chat.postMessage: "a workspace preference prevents the
 * authenticated user from posting", such as who may post in one channel): another channel of
 * the same workspace may take the bot's posts.
 */
const CHANNEL_GONE = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "restricted_action_non_threadable_channel",
  // A Slack Connect channel whose other organization has not granted the app: that channel's.
  "team_access_not_granted",
]);

const WORKSPACE = new Set([
  "invalid_auth",
  "not_authed",
  "account_inactive",
  "token_revoked",
  "token_expired",
  "no_permission",
  "missing_scope",
]);

/**
 * slack-web-api-client's errors, told by the names its classes give them: a class test would
 * need the one copy of the class that threw, and the tests' workerd loads that CommonJS module
 * once for an `import` and once more for the client's own `require`.
 */
const isSlackAPIError = (error: unknown): error is SlackAPIError =>
  error instanceof Error && error.name === "SlackAPIError";
const isSlackAPIConnectionError = (error: unknown): error is SlackAPIConnectionError =>
  error instanceof Error && error.name === "SlackAPIConnectionError";

export function classifySlackFailure(error: unknown): SlackFailure {
  if (error instanceof SlackTimeoutError) return { kind: "unknown", code: "timeout" };
  if (error instanceof BudgetExhaustedError) return { kind: "deferred", code: "budget" };
  if (isSlackAPIError(error)) {
    const code = String(error.error);
    if (CHANNEL_GONE.has(code)) return { kind: "permanent", code };
    if (WORKSPACE.has(code)) return { kind: "workspace", code };
    if (
      code === "ratelimited" ||
      code === "internal_error" ||
      code === MALFORMED_ANSWER ||
      code === "fatal_error" ||
      code === "service_unavailable"
    )
      return { kind: "transient", code };
    const detail = detailOf(error);
    return { kind: "rejected", code, ...(detail.length > 0 ? { detail } : {}) };
  }
  if (isSlackAPIConnectionError(error)) {
    if (error.status !== 429) return { kind: "transient", code: `http_${error.status}` };
    const seconds = Number.parseFloat(error.headers?.get("retry-after") ?? "");
    return {
      kind: "transient",
      code: "ratelimited",
      ...(Number.isFinite(seconds) && seconds > 0 ? { retryAfterSeconds: seconds } : {}),
    };
  }
  return { kind: "transient", code: "network_error" };
}

/**
 * The same, for a call that changes something (a post): an answer lost on the way back (5xx,
 * a dropped connection, Slack's own internal error) may come after Slack did it, so its
 * outcome is unknown, never "not posted". Only 429 and error answers say it was not done.
 */
export function classifyWriteFailure(error: unknown): SlackFailure {
  const failure = classifySlackFailure(error);
  if (failure.kind !== "transient" || failure.code === "ratelimited") return failure;
  return { kind: "unknown", code: failure.code };
}

/**
 * Slack said "not now" or did not answer: the same call may succeed later (an edit is owed,
 * not dropped). A refusal of this message or this channel will not.
 */
export const retryLater = (failure: SlackFailure) =>
  failure.kind !== "rejected" && failure.kind !== "permanent";

/**
 * Slack's answer for a message that is no longer there (a person deleted it): `chat.update`'s
 * `message_not_found`, or a reply refused under it, as one review saw.
 */
export const messageGone = (failure: SlackFailure): boolean =>
  failure.code === "message_not_found" || failure.code === "thread_not_found";

/** What status says while a post's outcome is unknown, from the first poll to its settling. */
const CHECKING_WHETHER_IT_LANDED =
  "Slack's answer to a post was lost; the bot is checking whether it landed before telling it again, within 30 minutes";

/** A sentence for `/decipher status` and logs; Slack error codes are safe to show. */
export function describeSlackFailure({ kind, code }: SlackFailure): string {
  // A post Slack may have stored (a 5xx, a timeout, a dropped connection): the outbox looks it up
  // (src/engine/settle-outcome.ts), so status says that from the first poll, not the raw answer.
  if (kind === "unknown") return `${CHECKING_WHETHER_IT_LANDED}.`;
  switch (code) {
    case "channel_not_found":
      return "Slack says this channel no longer exists (channel_not_found).";
    case "not_in_channel":
      return "The bot is not a member of this channel (not_in_channel): invite it with /invite, then subscribe again.";
    case "is_archived":
      return "This channel is archived (is_archived).";
    case "restricted_action":
      return "Slack says a workspace setting keeps the bot from posting there (restricted_action).";
    case "restricted_action_read_only_channel":
      return "Slack says that channel is read-only (restricted_action_read_only_channel).";
    case "restricted_action_thread_only_channel":
      return "Slack says that channel takes replies in threads only (restricted_action_thread_only_channel).";
    case "restricted_action_non_threadable_channel":
      return "Slack says that channel takes no replies in threads (restricted_action_non_threadable_channel).";
    case "team_access_not_granted":
      return "Slack says that channel's other organization has not let the app in (team_access_not_granted).";
    case "invalid_auth":
    case "not_authed":
    case "token_revoked":
    case "token_expired":
    case "account_inactive":
      return `Slack rejected the bot's token (${code}): alerts are held back and retried; if it persists, an admin needs to update SLACK_BOT_TOKEN.`;
    case "missing_scope":
    case "no_permission":
      return `Slack refused the bot's permissions (${code}): reinstall the app with the scopes in slack/manifest.yml.`;
    case "ratelimited":
      return "Slack rate-limited the bot; it will try again.";
    case "budget":
      return "Too much to post in one minute; the rest goes out next minute.";
    default:
      // An outbox lookup (src/objects/sql-outbox.ts): the post may be in the channel already.
      if (code === "awaiting_lookup" || code.startsWith("lookup_")) {
        const why = code.replace(/^lookup_/, "");
        const detail = ["awaiting_lookup", "paced", "continues"].includes(why)
          ? ""
          : ` (Slack answered ${why})`;
        return `${CHECKING_WHETHER_IT_LANDED}${detail}.`;
      }
      return `Slack answered ${code}.`;
  }
}

/** The detail lines Slack gives with a refusal: `response_metadata.messages`, else `errors`. */
function detailOf(error: SlackAPIError): string[] {
  const data = (error as { result?: { response_metadata?: { messages?: unknown }; errors?: unknown } })
    .result;
  const lines = data?.response_metadata?.messages ?? data?.errors;
  return Array.isArray(lines) ? lines.filter((l): l is string => typeof l === "string").slice(0, 20) : [];
}
