import type { PollOutcome } from "../engine/poll-outcome.ts";
import type { PollReport, PollSummary } from "../model/poll-result.ts";
import type { Subscription } from "../model/subscription.ts";

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
    erroringSince: null,
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
  const status = after.paused
    ? "paused"
    : result.skipped
      ? "waiting"
      : after.erroringSince
        ? "erroring"
        : "ok";
  return {
    name,
    status,
    at,
    erroringSince: after.erroringSince ?? null,
    posts: result.posts,
    error: result.error,
    workspaceFailure: result.workspaceFailure ?? null,
    writes: { ...writes },
    held: result.held ?? null,
    waitsOnChannel: result.waitsOnChannel === true,
    overdue: after.overdue ?? 0,
  };
}

/**
 * The state to store after a poll (`next`, or null for none) with the ledger's overdue count
 * now, which changes the stored state when it differs from the one the state holds.
 */
export function withOverdue<S extends Subscription>(
  sub: S,
  next: S | null,
  overdue: number,
  at: string,
): S | null {
  const current = next ?? sub;
  return (current.overdue ?? 0) !== overdue ? { ...current, overdue, lastChangeAt: at } : next;
}
