import { type DigestTestState, digestMessage } from "../slack/blocks/index.ts";
import type { Deps } from "../slack/deps.ts";
import type { DigestSchedule } from "../state/digests.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../state/subscription-types.ts";
import { mapLimit } from "../util/map-limit.ts";
import type { IssueCollection, TestInfo, TestRun } from "../vendor/types.ts";
import { localDate, nextOccurrence } from "./schedule.ts";
import { post } from "./slack-post.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const CONCURRENCY = 3;

export type DigestOutcome =
  | { kind: "sent"; next: DigestSchedule }
  | { kind: "retry"; error: string }
  | { kind: "skipped"; next: DigestSchedule; error: string };

export function isDue(schedule: DigestSchedule, now: Date): boolean {
  return Date.parse(schedule.nextDueAt) <= now.getTime();
}

async function testLine(deps: Deps, sub: TestSubscription, now: Date) {
  const page = await deps.vendor.listTestRuns(sub.testId, {
    status: "all",
    limit: 100,
    since: new Date(now.getTime() - DAY_MS),
  });
  const finished = page.data.filter((r) => r.status !== "running");
  const failures = finished.filter((r) => r.status === "failed").length;
  const latest = page.data.reduce<TestRun | undefined>((a, r) => (!a || r.id > a.id ? r : a), undefined);
  const state: DigestTestState = !latest
    ? sub.streak
      ? "failing"
      : "unknown"
    : latest.status === "passed"
      ? "passing"
      : latest.status === "failed"
        ? "failing"
        : "running";
  return {
    test: page.test as TestInfo,
    runs24h: page.data.length,
    failures24h: failures,
    passRate: finished.length > 0 ? (finished.length - failures) / finished.length : null,
    state,
  };
}

async function collectionLine(deps: Deps, sub: CollectionSubscription, schedule: DigestSchedule) {
  const collection: IssueCollection = (
    await deps.vendor.listCollectionSessions(sub.collectionId, { limit: 1 })
  ).collection;
  // Change since the previous digest (about 24 h); the first digest compares with the last alert.
  const before = schedule.collectionCounts[String(sub.collectionId)] ?? sub.alertedCount;
  return { collection, change24h: collection.sessionCount - before };
}

/**
 * Builds and posts one channel's digest. The schedule moves to the next local `HH:MM` only
 * after the post succeeded; a missed cycle therefore sends it at the next one, once.
 */
export async function sendDigest(
  deps: Deps,
  channelId: string,
  schedule: DigestSchedule,
  subscriptions: Subscription[],
  now: Date,
): Promise<DigestOutcome> {
  const active = subscriptions.filter((s) => s.channelId === channelId && !s.paused);
  let lines: {
    tests: Awaited<ReturnType<typeof testLine>>[];
    collections: Awaited<ReturnType<typeof collectionLine>>[];
  };
  try {
    const [tests, collections] = await Promise.all([
      mapLimit(
        active.filter((s): s is TestSubscription => s.kind === "test"),
        CONCURRENCY,
        (s) => testLine(deps, s, now),
      ),
      mapLimit(
        active.filter((s): s is CollectionSubscription => s.kind === "collection"),
        CONCURRENCY,
        (s) => collectionLine(deps, s, schedule),
      ),
    ]);
    lines = { tests, collections };
  } catch (error) {
    return { kind: "retry", error: error instanceof Error ? error.name : "error" };
  }
  const message = digestMessage({
    date: localDate(now, schedule.zone),
    zone: schedule.zone,
    collections: [...lines.collections].sort((a, b) => b.change24h - a.change24h),
    tests: lines.tests,
    appUrl: deps.config.decipherAppUrl,
    now,
  });
  const result = await post(deps.slack, channelId, message);
  const next: DigestSchedule = {
    ...schedule,
    nextDueAt: nextOccurrence(schedule.time, schedule.zone, now).toISOString(),
  };
  if (result.ok) {
    return {
      kind: "sent",
      next: {
        ...next,
        lastSentAt: now.toISOString(),
        collectionCounts: Object.fromEntries(
          lines.collections.map((c) => [String(c.collection.id), c.collection.sessionCount]),
        ),
      },
    };
  }
  // A channel that is gone for good does not get retried every minute: try again tomorrow.
  if (result.failure.kind === "permanent") return { kind: "skipped", next, error: result.failure.code };
  return { kind: "retry", error: result.failure.code };
}
