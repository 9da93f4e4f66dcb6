import type { TestInfo, TestRun } from "../decipher/types.ts";
import { type CollectionParentInput, collectionParent } from "../messages/collection-card.ts";
import { failedRunParent } from "../messages/failed-run-card.ts";
import { flakyThreadParent } from "../messages/failure-meaning.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { testUrl } from "../messages/links.ts";
import { refOf } from "../model/alert-control.ts";
import { type CollectionAlertEvidence, collectionAlertEvidence } from "../model/alert-evidence.ts";
import type {
  CollectionSubscription,
  FailureStreak,
  FlakyThread,
  TestSubscription,
} from "../model/subscription.ts";
import type { Muted } from "../model/triage-state.ts";

export function testInfoOf(sub: TestSubscription, appUrl: string): TestInfo {
  return { id: sub.testId, name: sub.testName, url: testUrl(appUrl, sub.testId) };
}

/**
 * A failure streak's parent as it should read now: the first failure it announced and what
 * the alert showed with it when it was posted (its evidence: the strip of the last runs, the
 * failure's class, the production impact), how long the test has been red (or that it
 * recovered), and who is on it. Only the status line and the controls change between
 * renders. Re-rendered by the subscription's object after each poll that changed it and
 * after each triage click.
 */
export function testParent(
  sub: TestSubscription,
  streak: FailureStreak,
  input: {
    test?: TestInfo;
    appUrl: string;
    now: Date;
    /** The pass that ended the streak (a run, or its id and time as the state keeps them). */
    recoveredBy?: Pick<TestRun, "id" | "createdAt"> | null;
    /** Who unmuted it, just now: the alert says so, with its controls back. */
    unmutedBy?: Muted | null;
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
    evidence: streak.evidence ?? null,
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    muted: sub.muted ?? null,
    unmutedBy: input.unmutedBy ?? null,
    mention: input.ping ? (sub.options?.mention ?? null) : null,
    appUrl: input.appUrl,
    now: input.now,
  });
}

/**
 * The day's "is flaky" alert as it should read now: its first run and evidence as posted, and
 * who is on it. Null for a thread opened before the alert's run was stored: nothing to re-render from.
 */
export function flakyParent(
  sub: TestSubscription,
  flaky: FlakyThread,
  input: { test?: TestInfo; appUrl: string; now: Date; unmutedBy?: Muted | null },
): SlackMessage | null {
  if (!flaky.firstRun) return null;
  return flakyThreadParent({
    ref: refOf(sub),
    test: input.test ?? testInfoOf(sub, input.appUrl),
    run: flaky.firstRun,
    evidence: flaky.evidence ?? null,
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    muted: sub.muted ?? null,
    unmutedBy: input.unmutedBy ?? null,
    appUrl: input.appUrl,
    now: input.now,
    day: flaky.day,
  });
}

/** What a collection alert showed when it was posted; an empty record for cards stored before. */
export function cardEvidence(sub: CollectionSubscription): CollectionAlertEvidence {
  return (
    sub.card?.evidence ?? collectionAlertEvidence({ sessions: [], screenshotsExpiresAt: null, since: null })
  );
}

/** A collection alert's parent now: what it showed when posted, the current count, who is on it. */
export function collectionParentNow(
  sub: CollectionSubscription,
  input: Omit<CollectionParentInput, "ref" | "acknowledgedBy" | "snooze" | "muted" | "growthStep">,
): SlackMessage {
  return collectionParent({
    ...input,
    ref: refOf(sub),
    acknowledgedBy: sub.acknowledgedBy,
    snooze: sub.snooze,
    muted: sub.muted ?? null,
    growthStep: sub.growth,
  });
}

/** An open alert: its ts and the message to put there. */
export type OpenParent = { ts: string; message: SlackMessage };

/**
 * The open alert of a test re-rendered from its stored evidence after a triage click (who is
 * looking, the snooze, a mute or unmute), or null when it has none open.
 */
export function openTestParent(
  sub: TestSubscription,
  appUrl: string,
  now: Date,
  unmutedBy: Muted | null = null,
): OpenParent | null {
  const streak = sub.streak;
  const message = streak ? testParent(sub, streak, { appUrl, now, unmutedBy }) : null;
  if (streak && message) return { ts: streak.threadTs, message };
  // No failure streak open: the newer of the test's other alerts is the one its buttons belong
  // to — the day's "is flaky" alert, or the green parent of the last streak (which shows a
  // snooze that outlived it).
  const flaky = sub.flakyThread;
  const green = sub.recoveredParent?.recoveredBy ? sub.recoveredParent : undefined;
  if (flaky && (!green || Number(flaky.ts) > Number(green.ts))) {
    const flakyMessage = flakyParent(sub, flaky, { appUrl, now, unmutedBy });
    return flakyMessage ? { ts: flaky.ts, message: flakyMessage } : null;
  }
  if (!green?.recoveredBy) return null;
  const recoveredBy = { id: green.recoveredBy.id, createdAt: green.recoveredBy.at };
  const greenMessage = testParent(sub, green.streak, { appUrl, now, unmutedBy, recoveredBy });
  return greenMessage ? { ts: green.ts, message: greenMessage } : null;
}

/** The open alert of a collection, the same way (`openTestParent`). */
export function openCollectionParent(
  sub: CollectionSubscription,
  appUrl: string,
  now: Date,
  unmutedBy: Muted | null = null,
): OpenParent | null {
  const card = sub.card;
  if (!sub.threadTs || !card?.collection) return null;
  const message = collectionParentNow(sub, {
    collection: card.collection,
    previousCount: card.previousCount,
    evidence: cardEvidence(sub),
    regression: card.regression,
    unmutedBy,
    growthMarks: sub.counts ?? [],
    appUrl,
    now,
  });
  return { ts: sub.threadTs, message };
}
