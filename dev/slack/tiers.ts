import type { Distribution } from "./standin-types.ts";

// Slack's rate-limit tiers for conversations.history and .replies by how the app is
// distributed (docs/slack-platform.md names the pages). An internal app, or one approved for
// the Marketplace, reads at Tier 3 (about 50 a minute) with up to 999 per page; an app
// commercially distributed outside the Marketplace reads once a minute per method per
// workspace, 15 per page (since 2025-05-29 for new installs).

export const HISTORY_METHODS = new Set(["conversations.history", "conversations.replies"]);

type Tier = { perMinute: number; maxLimit: number; defaultLimit: number };

export const TIERS: Record<Distribution, Tier> = {
  internal: { perMinute: 50, maxLimit: 999, defaultLimit: 100 },
  distributed: { perMinute: 1, maxLimit: 15, defaultLimit: 15 },
};

const WINDOW_MS = 60_000;

/**
 * Requests per method in a sliding minute, per workspace. Returns the whole seconds to wait
 * (Slack's `Retry-After`), or 0 when the call may go through now.
 */
export function createMinuteWindow(now: () => number = Date.now) {
  const seen = new Map<string, number[]>();
  return {
    take(method: string, perMinute: number): number {
      const t = now();
      const recent = (seen.get(method) ?? []).filter((at) => t - at < WINDOW_MS);
      seen.set(method, recent);
      if (recent.length < perMinute) {
        recent.push(t);
        return 0;
      }
      return Math.max(1, Math.ceil((WINDOW_MS - (t - (recent[0] ?? t))) / 1000));
    },
  };
}

export type MinuteWindow = ReturnType<typeof createMinuteWindow>;
