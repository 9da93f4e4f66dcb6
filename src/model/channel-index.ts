import type { DigestSchedule } from "./digest-schedule.ts";
import { factsOf, subscriptionId } from "./kind-facts.ts";
import type { Subscription } from "./subscription.ts";
import type { SubscriptionKind } from "./subscription-kind.ts";
import { isSnoozed } from "./triage-state.ts";
import type { WeeklySchedule } from "./weekly-schedule.ts";

/**
 * A channel's index of its subscriptions, kept by its ChannelObject (src/objects/) and written
 * by each SubscriptionObject only when what the index shows of it changed: `/decipher list`,
 * `status` and the App Home read one channel with one call, however many it watches.
 */

/** What a subscription is doing, as one word: the headline counts of list, status and Home. */
export type IndexState = "ok" | "failing" | "paused" | "snoozed" | "muted";

/** The subscription's latest alert in the channel: its thread, and when it was last added to. */
export type LastAlert = { ts: string; at: string };

export type IndexEntry = {
  /** `test:101`: one row per subscription of the channel. */
  key: string;
  state: IndexState;
  /**
   * Since when it is failing as list, status and Home say it: its polls erring
   * (`erroringSince`), or what it watches failing (a test's streak); null otherwise.
   */
  failingSince: string | null;
  /** Failed runs older than 5 minutes with no fate (src/model/run-ledger.ts): should be 0. */
  overdue: number;
  lastAlert: LastAlert | null;
  /** The subscription as list, status and Home show it (`indexCopy`). */
  subscription: Subscription;
};

/** One read of a channel: its subscriptions, sorted, and its digest and weekly schedules. */
export type ChannelIndex = {
  entries: IndexEntry[];
  digest: DigestSchedule | null;
  weekly: WeeklySchedule | null;
};

export const indexKey = (kind: SubscriptionKind, id: number) => `${kind}:${id}`;

export const indexKeyOf = (sub: Subscription) => indexKey(sub.kind, subscriptionId(sub));

/**
 * The subscription without what only its object needs (a failure's first run and evidence, a
 * collection card, chart counts, pending edits): 200 of these still make one small answer.
 */
export function indexCopy(sub: Subscription): Subscription {
  return factsOf(sub).indexCopy(sub);
}

function failingSinceOf(sub: Subscription): string | null {
  if (sub.erroringSince) return sub.erroringSince;
  if (sub.lastError) return sub.lastError.at;
  return factsOf(sub).failingSince(sub);
}

/** Paused and muted outrank a snooze, which outranks failing: what a person can act on first. */
export function stateOf(sub: Subscription, now: Date): IndexState {
  if (sub.paused) return "paused";
  if (sub.muted) return "muted";
  if (isSnoozed(sub, now)) return "snoozed";
  return failingSinceOf(sub) ? "failing" : "ok";
}

/**
 * A posted message as its ts names it: Slack's ts is the Unix time the message was stored, so
 * the time shown is the message's own, never a run's (a run fails minutes before any message).
 */
export function posted(ts: string | null | undefined): LastAlert | null {
  const seconds = Number(ts);
  if (!ts || !Number.isFinite(seconds) || seconds <= 0) return null;
  return { ts, at: new Date(seconds * 1000).toISOString() };
}

/**
 * The newest message that alerted about the subscription: a test's streak parent (or the
 * outage message that named the streak, also once it ended), its last green parent, or the
 * day's flaky thread; a collection's alert.
 */
function lastAlertOf(sub: Subscription): LastAlert | null {
  const found = factsOf(sub).alertTs(sub).map(posted);
  return found.reduce<LastAlert | null>((a, b) => (!b || (a && a.at >= b.at) ? a : b), null);
}

/**
 * The index row of a subscription. A streak that ended leaves no thread on the subscription,
 * so the previous row's last alert is kept unless this one is newer.
 */
export function indexEntry(sub: Subscription, now: Date, previous: IndexEntry | null = null): IndexEntry {
  const current = lastAlertOf(sub);
  const kept = previous?.lastAlert ?? null;
  const lastAlert =
    current && kept ? (Date.parse(current.at) >= Date.parse(kept.at) ? current : kept) : (current ?? kept);
  // A row written before times came from the message's ts: its ts still names the message.
  const fromTs = lastAlert && (posted(lastAlert.ts) ?? lastAlert);
  return {
    key: indexKeyOf(sub),
    state: stateOf(sub, now),
    failingSince: failingSinceOf(sub),
    overdue: sub.overdue ?? 0,
    lastAlert: fromTs,
    subscription: indexCopy(sub),
  };
}

/** Collections, then tests, each by id: the order every page of list and status keeps. */
export function sortEntries(entries: readonly IndexEntry[]): IndexEntry[] {
  const idOf = (e: IndexEntry) => subscriptionId(e.subscription);
  return [...entries].sort((a, b) =>
    a.subscription.kind === b.subscription.kind
      ? idOf(a) - idOf(b)
      : a.subscription.kind.localeCompare(b.subscription.kind),
  );
}

/** How many entries are in each state, for a one-line summary. */
export function stateCounts(entries: readonly IndexEntry[], now: Date): Record<IndexState, number> {
  const counts: Record<IndexState, number> = { ok: 0, failing: 0, paused: 0, snoozed: 0, muted: 0 };
  for (const e of entries) counts[stateOf(e.subscription, now)]++;
  return counts;
}
