import { describeSlackFailure, type SlackFailure } from "../slack/errors.ts";
import type { Subscription } from "../state/subscription-types.ts";
import { isVendorApiError } from "../vendor/errors.ts";

/**
 * What polling one subscription did. `next` is the state to store, or null when nothing
 * changed, which is what keeps an idle cycle free of KV writes.
 */
export type PollOutcome = {
  next: Subscription | null;
  posts: number;
  error: string | null;
};

export const unchanged = (): PollOutcome => ({ next: null, posts: 0, error: null });

/** Records an error on the subscription, writing only when the message differs from the last one. */
export function withError(subscription: Subscription, message: string, now: Date): Subscription | null {
  if (subscription.lastError?.message === message) return null;
  const at = now.toISOString();
  return { ...subscription, lastError: { message, at, source: "vendor" }, lastChangeAt: at };
}

/** A vendor failure as a sentence for `/decipher status`: it names the problem, never the key. */
export function describeVendorFailure(error: unknown): string {
  if (!isVendorApiError(error)) return "Unexpected error while polling Decipher; will retry.";
  if (error.isAuthentication()) return "Decipher rejected the API key (401); check DECIPHER_API_KEY.";
  if (error.isNotFound()) return "Decipher no longer finds this item (404).";
  if (error.isRateLimited()) return "Decipher rate-limited the poll (429); will retry.";
  if (error.type === "timeout_error") return "Decipher did not answer in time; will retry.";
  if (error.type === "invalid_response")
    return `Decipher sent data the bot could not read (${error.field ?? "body"}); will retry.`;
  if (error.status !== null && error.status >= 500) return `Decipher failed (${error.status}); will retry.`;
  return `Decipher answered ${error.type}; will retry.`;
}

/** Applies a failed Slack post: permanent failures pause the subscription, others are retried. */
export function afterSlackFailure(
  subscription: Subscription,
  failure: SlackFailure,
  now: Date,
): Subscription {
  const at = now.toISOString();
  const message = describeSlackFailure(failure);
  const lastError = { message, at, source: "slack" as const };
  if (failure.kind === "permanent") {
    return { ...subscription, paused: { reason: message, at }, lastError, lastChangeAt: at };
  }
  return { ...subscription, lastError, lastChangeAt: at };
}

/**
 * While Slack keeps failing for a subscription, it is retried every cycle for the first few
 * minutes and then every fifth: each try costs a lease write, and an outage of hours must
 * not eat the day's KV writes.
 */
export function slackRetryDue(subscription: Subscription, now: Date): boolean {
  const error = subscription.lastError;
  if (error?.source !== "slack") return true;
  const minutes = Math.floor((now.getTime() - Date.parse(error.at)) / 60_000);
  return !(minutes >= 3 && minutes % 5 !== 0);
}
