import { isVendorApiError } from "../vendor/errors.ts";

/**
 * The sentence a Slack user sees when a Decipher call fails: what happened and what to do,
 * never a stack trace or a raw body. `subject` names what was asked for ("test 101").
 */
export function vendorErrorSentence(error: unknown, subject?: string): string {
  if (!isVendorApiError(error)) return "Something went wrong on our side. Please try again in a minute.";
  if (error.isAuthentication())
    return "The Decipher API key was rejected. An admin needs to update DECIPHER_API_KEY (a `dcp_…` organization key).";
  if (error.isAuthorization())
    return "The Decipher API key is not allowed to read this. Check the key's organization.";
  if (error.isNotFound())
    return `Decipher has no ${subject ?? "such item"} (not found). Check the id in its Decipher URL.`;
  if (error.isRateLimited()) return "Decipher is rate-limiting requests right now. Try again in a minute.";
  if (error.type === "timeout_error") return "Decipher did not answer in time. Try again in a minute.";
  if (error.type === "network_error" || (error.status !== null && error.status >= 500))
    return "Decipher is unavailable right now. Try again in a few minutes.";
  if (error.type === "invalid_response")
    return "Decipher answered with data this bot does not understand. Try again later; if it persists, tell the bot's maintainers.";
  if (error.isValidation())
    return `Decipher did not accept that request${error.field ? ` (check \`${error.field}\`)` : ""}.`;
  return "Decipher could not answer that request. Try again in a minute.";
}
