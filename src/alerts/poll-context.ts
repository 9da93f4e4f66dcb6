import type { Deps } from "../slack/deps.ts";

/** What one subscription's poll needs from the cycle running it. */
export type PollContext = {
  deps: Deps;
  now: Date;
  /** Takes the subscription's lease; false when another cycle holds it (then post nothing). */
  lease: () => Promise<boolean>;
};
