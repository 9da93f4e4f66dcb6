import type { RateLimitConfig } from "./standin-types.ts";

// A token bucket per key (workspace + channel). Slack documents chat.postMessage as roughly
// one message per second per channel "with short bursts allowed"; this is that, tunable.

export type RateLimiter = {
  /** Seconds to wait before retrying, or 0 when the call may go through now. */
  take(key: string): number;
};

export function createRateLimiter(config: RateLimitConfig, now: () => number = Date.now): RateLimiter {
  const capacity = 1 + Math.max(0, config.burst);
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: capacity, at: t };
      bucket.tokens = Math.min(capacity, bucket.tokens + ((t - bucket.at) / 1000) * config.perSecond);
      bucket.at = t;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      // Slack's Retry-After is whole seconds, at least 1.
      return Math.max(1, Math.ceil((1 - bucket.tokens) / config.perSecond));
    },
  };
}
