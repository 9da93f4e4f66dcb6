import type { ChannelIndex } from "./channel-index.ts";
import type { DigestSchedule } from "./digest-schedule.ts";
import { subscriptionId } from "./kind-facts.ts";
import type { PeriodRuns } from "./period-runs.ts";
import type { PostOwner } from "./post-owner.ts";
import { type Subscription, teamOf } from "./subscription.ts";
import type { SubscriptionKind } from "./subscription-kind.ts";
import type { TestStateFacts } from "./test-state.ts";
import type { TriageAction, TriageOutcome } from "./triage-state.ts";
import type { Weekday, WeeklySchedule } from "./weekly-schedule.ts";

/**
 * How Slack handlers reach a subscription's single writer (its Durable Object, see
 * src/objects/) without knowing it is one: triage buttons and `/decipher` changes go
 * through this, one at a time with the polls of that subscription.
 */

/** Names one subscription; the team id is part of it so several workspaces fit later. */
export type SubscriptionRef = { teamId: string; channelId: string; kind: SubscriptionKind; id: number };

/** The subscription as its buttons name it. */
export function refOf(sub: Subscription): SubscriptionRef {
  return {
    teamId: teamOf(sub),
    channelId: sub.channelId,
    kind: sub.kind,
    id: subscriptionId(sub),
  };
}

/** The engine's health, for `/health` and `/decipher status`. */
export type EngineHealth = {
  /** The first cycle the registry saw: freshness counts from it until a poll succeeds. */
  firstCycleAt: string | null;
  lastCycleAt: string | null;
  /** The last cycle in which a poll succeeded (or there was nothing to poll). */
  lastSuccessAt: string | null;
  subscriptions: number;
  /** Slack teams with a subscription: each has one clock (src/objects/team-clock.ts); 1 when unknown. */
  teams?: number;
  /** Subscriptions whose polls err (`erroringSince`): `/health` calls them failing subscriptions. */
  erroring: number;
  paused: number;
  /** Failed runs seen more than 5 minutes ago that have no fate yet: should always be 0. */
  overdue: number;
  /** A token or scope refusal seen by any subscription, until a post succeeds again. */
  slackWorkspace: { code: string; since: string } | null;
};

/** A post of the bot as Slack's `message_metadata_posted` tells of it. */
export type LandedPost = {
  teamId: string;
  channelId: string;
  owner: PostOwner;
  key: string;
  ts: string;
  /** It went out as text alone (the post's metadata says so). */
  textOnly: boolean;
};

export interface AlertControl {
  /** Keeps a live subscription (updating its options) or installs `fresh`, the new baseline. */
  subscribe(
    ref: SubscriptionRef,
    fresh: Subscription,
  ): Promise<{ subscription: Subscription; created: boolean }>;
  /** Waits for a running poll of it, so nothing is written back after. */
  unsubscribe(ref: SubscriptionRef): Promise<boolean>;
  /** Its object's state, or null when there is none (its index row may outlive it). */
  subscription(ref: SubscriptionRef): Promise<Subscription | null>;
  triage(ref: SubscriptionRef, action: TriageAction, now: Date): Promise<TriageOutcome>;
  /** Returns the previous schedule. */
  setDigest(
    teamId: string,
    channelId: string,
    when: { time: string; zone: string } | null,
    now: Date,
  ): Promise<DigestSchedule | null>;
  /** The weekly report (`/decipher weekly mon 09:00 zone`); returns the previous schedule. */
  setWeekly(
    teamId: string,
    channelId: string,
    when: { day: Weekday; time: string; zone: string } | null,
    now: Date,
  ): Promise<WeeklySchedule | null>;
  /** One team's (its registry shard's), or with no team every team's added up. */
  health(teamId?: string): Promise<EngineHealth>;
  /** A test's runs between two times, from its ledger; null for a collection or a subscription that is gone. */
  periodRuns(ref: SubscriptionRef, since: Date, until: Date): Promise<PeriodRuns | null>;
  /**
   * A test's state as of now: its ledger and the runs Decipher lists that its last poll did not
   * see (one vendor read, nothing stored); null for a collection or a subscription that is gone.
   */
  stateNow(ref: SubscriptionRef, now: Date): Promise<TestStateFacts | null>;
  /** One channel's subscriptions and schedules, from its index: one call however many it watches. */
  channelIndex(teamId: string, channelId: string, now: Date): Promise<ChannelIndex>;
  /**
   * Slack says a post of the bot landed (`message_metadata_posted`): the object that holds its
   * key settles a lost answer, or removes a second copy.
   */
  postLanded(landed: LandedPost, now: Date): Promise<string>;
}
