import type { Subscription } from "../model/subscription.ts";
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
  /**
   * The channel's subscriptions as its index holds them (src/model/channel-index.ts): the
   * collections an alert's production impact names, the tests guarding a collection's page.
   * Without it an alert names none.
   */
  channelSubscriptions?: () => Promise<Subscription[]>;
  /**
   * Asks the channel before an overdue failure is told alone: its decision if it made one (the
   * outage message's ts, or null for alone), "wait" while a message of its that may name the
   * run has an unknown outcome. Otherwise the run is the test's to tell alone, and the channel
   * records that, so no outage message names it later.
   */
  claim?: (runId: number) => Promise<{ ts: string | null; passedNext?: boolean } | "wait">;
};

/**
 * The channel's outage message (its ts) named these runs; those in `passedNext` it named "then
 * passed on the next run", so that pass is told there and nowhere else.
 */
export type OutageGroup = { ts: string; runIds: readonly number[]; passedNext?: readonly number[] };

export type PollMode = {
  hold?: boolean;
  group?: OutageGroup | null;
  /** The channel decided the held failures (grouped or alone): this poll tells them, whichever poll held them. */
  told?: boolean;
};
