import type { CollectionSubscription, TestSubscription } from "../state/subscription-types.ts";
import type { VendorClient } from "../vendor/client.ts";
import type { TestRun, TestRunPage } from "../vendor/types.ts";
import { advanceWatermark, createdMs, isSettled } from "./run-window.ts";
import { MAX_PENDING, PENDING_FOR_MS } from "./test-runs.ts";

/** Runs read at subscribe time; enough to cover everything that ran "before" the subscription. */
const BASELINE_RUNS = 50;
/** Pages followed when the vendor lists oldest first (see readBaselineRuns). */
const BASELINE_MAX_PAGES = 10;

type Who = { channelId: string; userId: string; now: Date };

/**
 * Records what already happened so nothing before the subscription alerts. Runs still
 * `running` stay pending: if they fail later, that failure is news.
 * Throws `VendorApiError` (not found, auth, …) and then nothing is stored.
 */
export async function baselineTest(
  vendor: VendorClient,
  testId: number,
  who: Who,
): Promise<TestSubscription> {
  const page = await readBaselineRuns(vendor, testId);
  const at = who.now.toISOString();
  // Everything already finished counts as seen; runs still running may yet fail and alert.
  const mark = advanceWatermark({ id: 0, at: null }, page.data, who.now);
  return {
    kind: "test",
    channelId: who.channelId,
    testId,
    testName: page.test.name,
    createdAt: at,
    createdBy: who.userId,
    paused: null,
    lastError: null,
    lastChangeAt: at,
    lastRunId: mark.id,
    // With nothing settled yet, the oldest run still running is where the next polls look from.
    lastRunAt: mark.at ?? oldestCreatedAt(page.data),
    handledRunIds: page.data
      .filter((run) => run.id > mark.id && isSettled(run, who.now))
      .map((run) => run.id),
    streak: null,
    // Runs running for over an hour are passed as abandoned, but may still fail: watched, as
    // the polls watch the ones they pass (see test-runs.ts).
    pendingRuns: page.data
      .filter((run) => run.status === "running" && isSettled(run, who.now))
      .filter((run) => who.now.getTime() - (createdMs(run) ?? 0) < PENDING_FOR_MS)
      .map((run) => ({ id: run.id, createdAt: run.createdAt }))
      .sort((a, b) => b.id - a.id)
      .slice(0, MAX_PENDING),
  };
}

/**
 * The newest runs. The list order is not documented: newest first, the first page has them;
 * oldest first (seen from the ids), they are on the last page, so the pages are followed
 * (boundedly) to it. Otherwise every failure between the two would be announced as new.
 */
async function readBaselineRuns(
  vendor: VendorClient,
  testId: number,
): Promise<{ test: TestRunPage["test"]; data: TestRun[] }> {
  let page = await vendor.listTestRuns(testId, { limit: BASELINE_RUNS, status: "all" });
  const data = [...page.data];
  const first = page.data[0];
  const last = page.data.at(-1);
  if (!first || !last || first.id >= last.id) return { test: page.test, data };
  for (let n = 1; n < BASELINE_MAX_PAGES && page.hasMore && page.nextCursor; n++) {
    page = await vendor.listTestRuns(testId, {
      limit: BASELINE_RUNS,
      status: "all",
      cursor: page.nextCursor,
    });
    data.push(...page.data);
  }
  return { test: page.test, data };
}

function oldestCreatedAt(runs: readonly TestRun[]): string | null {
  const times = runs.map(createdMs).filter((t): t is number => t !== null);
  return times.length > 0 ? new Date(Math.min(...times)).toISOString() : null;
}

export async function baselineCollection(
  vendor: VendorClient,
  collectionId: number,
  growth: number | null,
  who: Who,
): Promise<CollectionSubscription> {
  const page = await vendor.listCollectionSessions(collectionId, { limit: 1 });
  const at = who.now.toISOString();
  return {
    kind: "collection",
    channelId: who.channelId,
    collectionId,
    rootCause: page.collection.rootCause,
    growth,
    createdAt: at,
    createdBy: who.userId,
    paused: null,
    lastError: null,
    lastChangeAt: at,
    alertedCount: page.collection.sessionCount,
    alertedAt: at,
    wasResolved: page.collection.isResolved,
    regressed: false,
    threadTs: null,
  };
}
