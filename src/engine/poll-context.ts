import type { SubrequestBudget } from "../util/subrequest-budget.ts";
import type { EngineDeps } from "./engine-deps.ts";

/**
 * Write-ahead record of posts, kept by the subscription's object: `intend` is stored before
 * a post and `done` right after it succeeds, so a crash or a timeout between the two is seen
 * by the next poll as "outcome unknown" instead of being posted again.
 */
export type PostJournal = {
  intend(what: string): Promise<void>;
  done(what: string): Promise<void>;
  /** Slack said no (an error answer, 429, 5xx): nothing was posted, so it is tried again later. */
  cancel(): Promise<void>;
};

/** What one subscription's poll needs from the object running it. */
export type PollContext = {
  deps: EngineDeps;
  now: Date;
  /** This invocation's subrequests; the vendor client and the Slack client draw from it too. */
  budget: SubrequestBudget;
  journal: PostJournal;
  /**
   * The outage check: the first poll of a cycle holds new failures back (`hold`); the second
   * either posts them alone or, when several tests of the channel failed together, adopts the
   * channel's outage message as their thread (`groupTs`).
   */
  mode?: PollMode;
};

export type PollMode = {
  hold?: boolean;
  groupTs?: string | null;
  /** The outage message naming these failures may have been posted: none is announced again. */
  groupUnknown?: boolean;
};
