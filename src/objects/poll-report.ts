import type { PollOutcome } from "../engine/poll-outcome.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import type { Subscription } from "../model/subscription.ts";
import type { PollSummary } from "./registry-object.ts";

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

/** A poll that did nothing (busy, gone, or never reached the object): no posts, no writes. */
export function quietReport(
  name: string,
  at: string,
  status: PollSummary["status"],
  error: string | null = null,
): PollReport {
  return {
    name,
    status,
    at,
    failingSince: null,
    posts: 0,
    error,
    workspaceFailure: null,
    writes: { storage: 0, kv: 0 },
    held: null,
    overdue: 0,
  };
}

/** The report of a poll that ran: the state it left (`after`), what it posted, what it wrote. */
export function pollReportOf(
  name: string,
  at: string,
  after: Subscription,
  result: PollOutcome,
  writes: { storage: number; kv: number },
): PollReport {
  const status = after.paused ? "paused" : result.skipped ? "waiting" : after.failingSince ? "failing" : "ok";
  return {
    name,
    status,
    at,
    failingSince: after.failingSince ?? null,
    posts: result.posts,
    error: result.error,
    workspaceFailure: result.workspaceFailure ?? null,
    writes: { ...writes },
    held: result.held ?? null,
    waitsOnChannel: result.waitsOnChannel === true,
    overdue: after.overdue ?? 0,
  };
}
