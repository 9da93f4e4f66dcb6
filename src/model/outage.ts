import type { HeldFailure } from "./held-failure.ts";

/**
 * The channel's latest outage message: its outbox key, what it was meant to name, and, once
 * Slack has it, its ts and the runs its delivered messages name.
 */
export type Outage = {
  key: string;
  at: string;
  items: HeldFailure[];
  subscribed: number;
  ts: string | null;
  named: number[];
  /** Tests (by id) whose streak ended since: the parent is edited to say so. */
  recovered?: number[];
  /** When the latest of them passed again: the outage stays open a quiet period after the last one. */
  lastRecoveredAt?: string;
  /** How many of `items` the parent was posted with (later ones join at the end, in its thread). */
  posted?: number;
  /**
   * Slack took the parent as text alone: it names no test, and its runs alerted alone. Its
   * edits stay text alone, so it never comes to name a run that has its own alert.
   */
  textOnly?: boolean;
  /** Slack refused the parent's latest edit for now (a rate limit): the next chance edits it again. */
  editOwed?: boolean;
};

/** An outage message Slack has. */
export type PostedOutage = Outage & { ts: string };

/**
 * What the channel decided for the failures held this cycle: the outage message they adopt as
 * their thread (`ts`, null when they alert alone), the runs its delivered messages name (only
 * these are grouped), and the runs a message may name whose outcome Slack has not confirmed:
 * those stay held and unfated, and the next cycle settles them through the channel's outbox.
 */
export type OutagePost = {
  ts: string | null;
  named: number[];
  waiting: number[];
  /**
   * Runs named by an earlier outage message whose outcome was unknown, found in Slack this
   * cycle: they adopt its thread instead (src/objects/channel-outage.ts, "set aside").
   */
  foundEarlier?: { ts: string; named: number[] }[];
};

/** The thread a decided run adopts: the message of this cycle that names it, or an earlier one found now. */
export function threadOf(post: OutagePost, runId: number): string | null {
  if (post.ts && post.named.includes(runId)) return post.ts;
  return post.foundEarlier?.find((f) => f.named.includes(runId))?.ts ?? null;
}
