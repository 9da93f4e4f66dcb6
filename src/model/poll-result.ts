import type { HeldFailure } from "./held-failure.ts";

/**
 * What one poll of a subscription came to, on its way up: the engine's `PollOutcome`
 * (src/engine/poll-outcome.ts: the state to store, posts, Slack's refusal) becomes the object's
 * `PollReport` for the cron, of which the registry keeps the `PollSummary`. Each level keeps
 * the names of the one below.
 */

/** How one poll went, as the registry keeps it for `/health` and `/decipher status`. */
export type PollStatus = "ok" | "erroring" | "paused" | "busy" | "gone" | "waiting";
export type PollSummary = {
  name: string;
  status: PollStatus;
  at: string;
  erroringSince: string | null;
  /** Failed runs older than 5 minutes with no fate (src/model/run-ledger.ts): always 0 when the engine works. */
  overdue?: number;
};

/** What one poll of a subscription's object tells the cron (and the registry, as its `PollSummary`). */
export type PollReport = PollSummary & {
  posts: number;
  error: string | null;
  workspaceFailure: string | null;
  /** Storage writes of this poll (the object's own, and the KV copy), to keep idle polls at zero. */
  writes: { storage: number; kv: number };
  held: HeldFailure | null;
  /** Overdue failures wait for its channel to settle a message that may name them: the cycle has the channel decide. */
  waitsOnChannel?: boolean;
  /** Failed runs older than 5 minutes with no fate: should always be 0 (src/model/run-ledger.ts). */
  overdue: number;
};
