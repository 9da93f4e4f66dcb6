import { isVendorApiError, type VendorApiError } from "../decipher/vendor-errors.ts";

/**
 * The one ladder that turns a failed Decipher call into words, for two readers:
 * - `vendorErrorSentence`: the person who asked (a command or a button), told what to do;
 * - `pollErrorSentence`: `/decipher status` after a poll failed, told that it will retry.
 * Neither shows a stack trace, a raw body or the key. The poller uses the second one too
 * (src/engine/poll-outcome.ts).
 */

type Failure =
  | { kind: "unexpected" }
  | { kind: "auth" }
  | { kind: "forbidden" }
  | { kind: "not-found" }
  | { kind: "rate-limited" }
  | { kind: "timeout" }
  | { kind: "unavailable"; status: number | null }
  | { kind: "unreadable"; field: string | null }
  | { kind: "rejected"; field: string | null }
  | { kind: "other"; type: string };

export function classifyVendorError(error: unknown): Failure {
  if (!isVendorApiError(error)) return { kind: "unexpected" };
  const e: VendorApiError = error;
  if (e.isAuthentication()) return { kind: "auth" };
  if (e.isAuthorization()) return { kind: "forbidden" };
  if (e.isNotFound()) return { kind: "not-found" };
  if (e.isRateLimited()) return { kind: "rate-limited" };
  if (e.type === "timeout_error") return { kind: "timeout" };
  if (e.type === "invalid_response") return { kind: "unreadable", field: e.field ?? null };
  if (e.type === "network_error" || (e.status !== null && e.status >= 500))
    return { kind: "unavailable", status: e.status };
  if (e.isValidation()) return { kind: "rejected", field: e.field ?? null };
  return { kind: "other", type: String(e.type) };
}

/** For the person who asked; `subject` names what was asked for ("test 101"). */
export function vendorErrorSentence(error: unknown, subject?: string): string {
  const failure = classifyVendorError(error);
  switch (failure.kind) {
    case "unexpected":
      return "Something went wrong on our side. Please try again in a minute.";
    case "auth":
      return "The Decipher API key was rejected. An admin needs to update DECIPHER_API_KEY (a `dcp_…` organization key).";
    case "forbidden":
      return "The Decipher API key is not allowed to read this. Check the key's organization.";
    case "not-found":
      return `Decipher has no ${subject ?? "such item"} (not found). Check the id in its Decipher URL.`;
    case "rate-limited":
      return "Decipher is rate-limiting requests right now. Try again in a minute.";
    case "timeout":
      return "Decipher did not answer in time. Try again in a minute.";
    case "unavailable":
      return "Decipher is unavailable right now. Try again in a few minutes.";
    case "unreadable":
      return "Decipher answered with data this bot does not understand. Try again later; if it persists, tell the bot's maintainers.";
    case "rejected":
      return `Decipher did not accept that request${failure.field ? ` (check \`${failure.field}\`)` : ""}.`;
    case "other":
      return "Decipher could not answer that request. Try again in a minute.";
  }
}

/** For `/decipher status` after a failed poll: names the problem and says the poll retries. */
export function pollErrorSentence(error: unknown): string {
  const failure = classifyVendorError(error);
  switch (failure.kind) {
    case "unexpected":
      return "Unexpected error while polling Decipher; will retry.";
    case "auth":
      return "Decipher rejected the API key (401); check DECIPHER_API_KEY.";
    case "forbidden":
      return "Decipher does not allow the API key to read this (403); check the key's organization.";
    case "not-found":
      return "Decipher no longer finds this item (404).";
    case "rate-limited":
      return "Decipher rate-limited the poll (429); will retry.";
    case "timeout":
      return "Decipher did not answer in time; will retry.";
    case "unreadable":
      return `Decipher sent data the bot could not read (${failure.field ?? "body"}); will retry.`;
    case "unavailable":
      return failure.status !== null
        ? `Decipher failed (${failure.status}); will retry.`
        : "Decipher could not be reached; will retry.";
    case "rejected":
      return `Decipher did not accept the poll${failure.field ? ` (check ${failure.field})` : ""}; will retry.`;
    case "other":
      return `Decipher answered ${failure.type}; will retry.`;
  }
}
