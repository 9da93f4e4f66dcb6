import type { RejectedRun } from "../decipher/types.ts";
import { isVendorApiError } from "../decipher/vendor-errors.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import { subscriptionId } from "../model/kind-facts.ts";
import { slackPause } from "../model/pause.ts";
import { retryDue } from "../model/poll-clock.ts";
import type { Quarantined, Subscription } from "../model/subscription.ts";
import { describeSlackFailure, type SlackFailure } from "../slack-api/slack-errors.ts";
import { SETTLE_BOUND_MS } from "./settle-outcome.ts";

/**
 * What polling one subscription did. `next` is the state to store, or null when nothing
 * changed, which is what keeps an idle cycle free of writes.
 */
export type PollOutcome = {
  next: Subscription | null;
  posts: number;
  error: string | null;
  /** Set when Slack refused: the object tells the registry about workspace-wide refusals. */
  slackFailure?: SlackFailure;
  /** A new failure not posted yet: the cycle decides whether it is part of an outage. */
  held?: HeldFailure | null;
  /** Overdue failures wait for the channel to settle a message that may name them (`claim`). */
  waitsOnChannel?: boolean;
  /** Paused, or waiting out a Slack backoff: nothing was asked of anyone. */
  skipped?: boolean;
  /** A token or scope refusal (workspace-wide), to tell the registry. */
  workspaceFailure?: string | null;
  /** Outage messages (by ts) this test's streak recovered from: the channel re-renders them. */
  outageRecoveries?: string[];
};

export const unchanged = (): PollOutcome => ({ next: null, posts: 0, error: null });

/** Kept short: status shows the latest, and the list must stay bounded. */
const MAX_NOTES = 5;

/**
 * A failed poll (Decipher unreachable, or answering nonsense): the error is recorded when it
 * differs from the last one, and `erroringSince` marks when polls started failing, so the
 * channel can be told after 15 minutes.
 */
export function pollFailed(sub: Subscription, message: string, error: unknown, now: Date): PollOutcome {
  const at = now.toISOString();
  const erroringSince = sub.erroringSince ?? at;
  // The subscription's own item answered 404: deleted at Decipher. Polling it again would fail
  // the same way forever; paused, the channel is told once why and how to resume.
  if (isVendorApiError(error) && error.type === "not_found_error") {
    const reason = `${sub.kind} ${subscriptionId(sub)} no longer exists in Decipher (it answered 404).`;
    const lastError = { message, at, source: "vendor" as const };
    return {
      next: { ...sub, paused: { reason, at }, lastError, erroringSince, lastChangeAt: at },
      posts: 0,
      error: message,
    };
  }
  if (sub.lastError?.message === message && sub.erroringSince)
    return { next: null, posts: 0, error: message };
  return {
    next: { ...sub, lastError: { message, at, source: "vendor" }, erroringSince, lastChangeAt: at },
    posts: 0,
    error: message,
  };
}

/** The longest `Retry-After` waited out: a skipped poll reads nothing, so no longer than a failure may wait untold. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** When Slack said to come back, as a time, or null when it did not say. */
export function retryAtOf(failure: SlackFailure, now: Date): string | null {
  const seconds = failure.retryAfterSeconds;
  if (seconds === undefined) return null;
  return new Date(now.getTime() + Math.min(seconds * 1000, MAX_RETRY_AFTER_MS)).toISOString();
}

/** Applies a failed Slack post: channel-level refusals pause the subscription, others are retried. */
export function afterSlackFailure<S extends Subscription>(
  subscription: S,
  failure: SlackFailure,
  now: Date,
): S {
  const at = now.toISOString();
  const message = describeSlackFailure(failure);
  const retryAt = retryAtOf(failure, now);
  // The same error again keeps its first time: the backoff counts from there.
  const kept =
    subscription.lastError?.message === message && subscription.lastError.source === "slack"
      ? subscription.lastError
      : {
          message,
          at,
          source: "slack" as const,
          ...(failure.kind === "unknown" ? { checking: true as const } : {}),
        };
  const { retryAt: _before, ...rest } = kept;
  const lastError = retryAt ? { ...rest, retryAt } : rest;
  // Not knowing whether a post landed is no failure yet: the lookup or the settle bound
  // (src/engine/settle-outcome.ts) decides within 30 minutes, and a "not working" notice in
  // the meantime would be untrue whenever the post did land.
  const erroringSince = subscription.erroringSince ?? (failure.kind === "unknown" ? null : at);
  if (failure.kind === "permanent") {
    const paused = slackPause(subscription.paused, message, now);
    return { ...subscription, paused, lastError, erroringSince, lastChangeAt: at };
  }
  return { ...subscription, lastError, erroringSince, lastChangeAt: at };
}

/**
 * While Slack keeps failing for a subscription, it is retried every cycle for the first few
 * minutes and then every fifth: an outage of hours must not spend the day's budgets.
 */
export function slackRetryDue(subscription: Subscription, now: Date): boolean {
  const error = subscription.lastError;
  if (error?.source !== "slack") return true;
  // A post whose answer was lost is decided in the minute its settle bound passes, not at the
  // next fifth minute after it (the bound counts from the same attempt as `at`).
  if (
    error.checking &&
    Math.floor((now.getTime() - Date.parse(error.at)) / 60_000) === SETTLE_BOUND_MS / 60_000
  )
    return true;
  // Slack said when to come back: not before then, and then at once.
  if (error.retryAt) return now.getTime() >= Date.parse(error.retryAt);
  return retryDue(error.at, now);
}

/** Records runs the vendor sent in a shape the bot cannot read, once each. */
export function noteQuarantined<S extends Subscription>(sub: S, rejected: RejectedRun[], now: Date): S {
  if (rejected.length === 0) return sub;
  const known = new Set((sub.quarantined ?? []).map((q) => q.what));
  const fresh: Quarantined[] = rejected
    .map((r) => ({
      what: r.id !== null ? `run #${r.id}` : `an unnumbered run`,
      field: r.field,
      at: now.toISOString(),
    }))
    .filter((q) => !known.has(q.what));
  if (fresh.length === 0) return sub;
  for (const q of fresh) console.warn(`skipped an unreadable ${q.what} (${q.field})`);
  return { ...sub, quarantined: [...(sub.quarantined ?? []), ...fresh].slice(-MAX_NOTES) };
}
