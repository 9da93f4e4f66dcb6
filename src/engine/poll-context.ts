import type { SubrequestBudget } from "../util/subrequest-budget.ts";
import type { EngineDeps } from "./engine-deps.ts";
import type { ReadLastRun } from "./guarding-tests.ts";
import type { Outbox } from "./outbox.ts";

/** What one subscription's poll needs from the object running it. */
export type PollContext = {
  deps: EngineDeps;
  now: Date;
  /** This invocation's subrequests; the vendor client and the Slack client draw from it too. */
  budget: SubrequestBudget;
  /** Every post goes through it: recorded before it is sent, never sent twice (src/engine/outbox.ts). */
  outbox: Outbox;
  /**
   * The outage check: the first look of a cycle holds a new failure back (`hold`); after the
   * channel decided, the failures its outage message named adopt it as their thread (`group`).
   */
  mode?: PollMode;
  /** The cron cycle (its time) this poll belongs to. */
  cycle?: string;
  /**
   * A test of this channel's last run, from that test's own object: what a collection alert
   * says of the tests guarding its page. Without it the alert names them without a run.
   */
  readLastRun?: ReadLastRun;
};

export type PollMode = {
  hold?: boolean;
  group?: { ts: string; runIds: number[] } | null;
  /** The channel decided the held failures (grouped or alone): this poll tells them, whichever poll held them. */
  told?: boolean;
};
