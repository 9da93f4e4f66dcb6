import type { DigestSchedule } from "./digest-schedule.ts";
import type { SubscriptionKind } from "./keys.ts";
import type { Subscription } from "./subscription-types.ts";

/**
 * How Slack handlers reach a subscription's single writer (its Durable Object, see
 * src/objects/) without knowing it is one: triage buttons and `/decipher` changes go
 * through this, one at a time with the polls of that subscription.
 */

/** Names one subscription; the team id is part of it so several workspaces fit later. */
export type SubscriptionRef = { teamId: string; channelId: string; kind: SubscriptionKind; id: number };

export type SnoozeChoice =
  | { kind: "for"; hours: number }
  /** Tests: until a run passes again. */
  | { kind: "until-pass" }
  /** Collections: until this many more sessions than now. */
  | { kind: "until-growth"; sessions: number };

export type TriageAction =
  | { type: "acknowledge"; userId: string }
  | { type: "snooze"; userId: string; choice: SnoozeChoice }
  | { type: "unsnooze"; userId: string }
  | { type: "mute"; userId: string };

export type TriageOutcome =
  /** `note`: one sentence for the person who clicked (ephemeral). */
  | { ok: true; note: string }
  /** `gone`: the subscription no longer exists (an old alert); `invalid`: the action makes no sense now. */
  | { ok: false; reason: "gone" | "invalid"; note: string };

export type Acknowledgement = { userId: string; at: string };

export type Snooze = {
  by: string;
  at: string;
  /** ISO end of a timed snooze; null for until-pass / until-growth. */
  until: string | null;
  choice: SnoozeChoice;
  /** What happened while snoozed, summed up in one message when it ends. */
  missedFailures: number;
  /** Collections: the count when the snooze began (until-growth compares with it). */
  countAtStart: number | null;
};

/** The engine's health, for `/health` and `/decipher status`. */
export type EngineHealth = {
  /** The first cycle the registry saw: freshness counts from it until a poll succeeds. */
  firstCycleAt: string | null;
  lastCycleAt: string | null;
  /** The last cycle in which a poll succeeded (or there was nothing to poll). */
  lastSuccessAt: string | null;
  subscriptions: number;
  failing: number;
  paused: number;
  /** A token or scope refusal seen by any subscription, until a post succeeds again. */
  slackWorkspace: { code: string; since: string } | null;
};

export interface AlertControl {
  /** Keeps a live subscription (updating its options) or installs `fresh`, the new baseline. */
  subscribe(
    ref: SubscriptionRef,
    fresh: Subscription,
  ): Promise<{ subscription: Subscription; created: boolean }>;
  /** Waits for a running poll of it, so nothing is written back after. */
  unsubscribe(ref: SubscriptionRef): Promise<boolean>;
  triage(ref: SubscriptionRef, action: TriageAction, now: Date): Promise<TriageOutcome>;
  /** Returns the previous schedule. */
  setDigest(
    teamId: string,
    channelId: string,
    when: { time: string; zone: string } | null,
    now: Date,
  ): Promise<DigestSchedule | null>;
  health(): Promise<EngineHealth>;
}
