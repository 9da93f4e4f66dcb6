import { type CollectionParentInput, collectionParent } from "../messages/collection-card.ts";
import { failedRunParent } from "../messages/failed-run-card.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { testUrl } from "../messages/links.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import type {
  CollectionSubscription,
  FailureStreak,
  Subscription,
  TestSubscription,
} from "../model/subscription.ts";
import type { Acknowledgement } from "../model/triage-state.ts";
import { DEFAULT_TEAM } from "../store/keys.ts";
import type { TestInfo, TestRun } from "../vendor/types.ts";

/** The subscription as its triage buttons name it. */
export function refOf(sub: Subscription): SubscriptionRef {
  return {
    teamId: sub.teamId ?? DEFAULT_TEAM,
    channelId: sub.channelId,
    kind: sub.kind,
    id: sub.kind === "test" ? sub.testId : sub.collectionId,
  };
}

export function testInfoOf(sub: TestSubscription, appUrl: string): TestInfo {
  return { id: sub.testId, name: sub.testName, url: testUrl(appUrl, sub.testId) };
}

/**
 * A failure streak's parent as it should read now: the first failure it announced, how long
 * the test has been red (or that it passed again), and who is on it. Re-rendered by the
 * subscription's object after each poll that changed it and after each triage click.
 */
export function testParent(
  sub: TestSubscription,
  streak: FailureStreak,
  input: {
    test?: TestInfo;
    appUrl: string;
    now: Date;
    recoveredBy?: TestRun | null;
    recentRuns?: readonly TestRun[];
    mutedBy?: Acknowledgement | null;
    /** The streak's first post: the only one that carries the subscription's `mention:`. */
    ping?: boolean;
  },
): SlackMessage | null {
  const first = streak.firstRun;
  if (!first || streak.grouped) return null;
  return failedRunParent({
    ref: refOf(sub),
    test: input.test ?? testInfoOf(sub, input.appUrl),
    firstRun: first,
    streak: {
      failedRuns: streak.failedRuns,
      lastRun: { id: streak.lastRunId, at: streak.lastFailedAt ?? first.createdAt },
    },
    recoveredBy: input.recoveredBy ? { id: input.recoveredBy.id, at: input.recoveredBy.createdAt } : null,
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    mutedBy: input.mutedBy ?? null,
    ...(input.recentRuns ? { recentRuns: input.recentRuns } : {}),
    mention: input.ping ? (sub.options?.mention ?? null) : null,
    appUrl: input.appUrl,
    now: input.now,
  });
}

/** A collection alert's parent now: the first card's growth, the current count, who is on it. */
export function collectionParentNow(
  sub: CollectionSubscription,
  input: Omit<CollectionParentInput, "ref" | "acknowledgedBy" | "snooze" | "growthStep">,
): SlackMessage {
  return collectionParent({
    ...input,
    ref: refOf(sub),
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    growthStep: sub.growth,
  });
}

/**
 * The open alert of a subscription re-rendered after a triage click (who is looking, the
 * snooze, a mute), or null when it has none open. Its ts and the message to put there.
 */
export function openParent(
  sub: Subscription,
  appUrl: string,
  now: Date,
  mutedBy: Acknowledgement | null = null,
): { ts: string; message: SlackMessage } | null {
  if (sub.kind === "test") {
    const streak = sub.streak;
    const message = streak ? testParent(sub, streak, { appUrl, now, mutedBy }) : null;
    return streak && message ? { ts: streak.threadTs, message } : null;
  }
  const card = sub.card;
  if (!sub.threadTs || !card?.collection) return null;
  const message = collectionParent({
    ref: refOf(sub),
    collection: card.collection,
    previousCount: card.previousCount,
    sessions: [],
    screenshotsExpiresAt: null,
    regression: card.regression,
    growthStep: sub.growth,
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    mutedBy,
    growthMarks: sub.counts ?? [],
    appUrl,
    now,
  });
  return { ts: sub.threadTs, message };
}
