import type { Deps } from "../slack/deps.ts";

/** What one subscription's poll needs from the cycle running it. */
export type PollContext = {
  deps: Deps;
  now: Date;
  /** Takes the subscription's lease; false when another cycle holds it (then post nothing). */
  lease: () => Promise<boolean>;
  /**
   * Slack calls this invocation may still make, shared by every poll in it: the Free plan
   * allows 50 subrequests per invocation. A poll that runs out stops and leaves the rest for
   * the next cycle, exactly as after a failed post.
   */
  slackBudget: { remaining: number };
};
