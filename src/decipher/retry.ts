/**
 * When (and whether) to try a failed vendor request again. Kept apart from the transport so
 * the policy is testable with plain numbers.
 */
import type { VendorApiError } from "./vendor-errors.ts";

export type RetryOptions = {
  /** Total attempts including the first; default 3. */
  attempts?: number;
  /** First backoff ceiling; doubles per attempt. Default 250 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling. Default 4 s. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` worth waiting for inside one request; default 5 s. Longer asks
   * are not slept through (a Worker invocation has ~30 s): the rate-limit error is thrown at
   * once, carrying `retryAfterMs`, so the caller can try again on its next cycle.
   */
  maxRetryAfterMs?: number;
};

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 5_000,
};

/**
 * Milliseconds to wait before the next attempt, or null to give up now. Backoff uses full
 * jitter (a uniform draw below the exponential ceiling) so many Workers that hit the same
 * 5xx do not come back in lockstep.
 */
export function nextDelay(
  error: VendorApiError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (attempt >= policy.attempts || !error.isRetryable()) return null;
  if (error.retryAfterMs !== null) {
    return error.retryAfterMs > policy.maxRetryAfterMs ? null : error.retryAfterMs;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * ceiling);
}

/** `Retry-After` as delta-seconds or HTTP-date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // V8's Date.parse reads "-5" as a year: require the day/month names an HTTP-date has.
  if (!/[a-z]{3}/i.test(value)) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}
