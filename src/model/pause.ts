import type { Paused, Subscription } from "./subscription.ts";

/**
 * A pause because Slack refused the channel (a posting restriction, the bot removed, archived)
 * is tried again once an hour; a pause because the item is gone at Decipher (404) is not. The
 * next try is a time on the pause itself (`retryAt`), never a timer: the poll that finds it due
 * makes the one attempt, and a refusal moves it an hour on. Subscribing there again resumes at
 * once. docs/architecture.md, "A channel Slack refuses", says what a pause does meanwhile.
 */
export const PAUSE_RETRY_MS = 60 * 60 * 1000;

/** Paused because Slack refused the channel (tried again hourly), not because the item is gone. */
export const pausedBySlack = (sub: Pick<Subscription, "paused">): boolean => !!sub.paused?.retryAt;

/** The pause after Slack refused the channel at `now`: since its first refusal, tried again in an hour. */
export function slackPause(current: Paused | null, reason: string, now: Date): Paused {
  return {
    reason,
    at: current?.at ?? now.toISOString(),
    retryAt: new Date(now.getTime() + PAUSE_RETRY_MS).toISOString(),
  };
}

/** Whether the channel is tried again now: at or after the time the pause holds. */
export function pauseRetryDue(paused: Paused | null, now: Date): boolean {
  return !!paused?.retryAt && now.getTime() >= Date.parse(paused.retryAt);
}

/** The subscription as it resumes: posting again, no pause, no error, no notice owed. */
export function resumed<S extends Subscription>(sub: S, now: Date): S {
  return {
    ...sub,
    paused: null,
    lastError: null,
    erroringSince: null,
    notice: "none",
    noticeSince: null,
    lastChangeAt: now.toISOString(),
  };
}
