import type { CollectionSubscription, TestSubscription } from "../model/subscription.ts";
import { paginatePages } from "../vendor/paginate.ts";
import type { VendorClient } from "../vendor/vendor-client.ts";
import { advanceWatermark, createdMs, isSettled } from "./run-window.ts";
import { MAX_PENDING, PENDING_FOR_MS } from "./test-runs.ts";

/**
 * Runs read at subscribe time: the latest page, and everything of the last 70 minutes (a run
 * still running is under an hour old, and polls read from 10 minutes before the anchor).
 */
const BASELINE_RUNS = 100;
const RECENT_WINDOW_MS = 70 * 60 * 1000;
const RECENT_PAGES = 3;
/**
 * Polls ask for runs since 10 min before the watermark's time; anchoring it no earlier than
 * 20 min before subscribing keeps every polled run inside what the baseline read.
 */
const ANCHOR_LAG_MS = 20 * 60 * 1000;

type Who = { channelId: string; userId: string; now: Date };

async function readBaselineRuns(vendor: VendorClient, testId: number, now: Date) {
  const latest = await vendor.listTestRuns(testId, { limit: BASELINE_RUNS, status: "all" });
  const byId = new Map(latest.data.map((run) => [run.id, run]));
  // The vendor's list order is not documented: if the page above holds the oldest runs, the
  // recent ones still come from this time-bounded read.
  const since = new Date(now.getTime() - RECENT_WINDOW_MS);
  const pages = paginatePages(
    (cursor) =>
      vendor.listTestRuns(testId, {
        limit: BASELINE_RUNS,
        status: "all",
        since,
        ...(cursor ? { cursor } : {}),
      }),
    { maxPages: RECENT_PAGES },
  );
  for await (const page of pages) for (const run of page.data) byId.set(run.id, run);
  return { test: latest.test, runs: [...byId.values()] };
}

/**
 * Records what already happened so nothing before the subscription alerts, whatever order
 * Decipher lists runs in. Runs still `running` stay pending: if they fail later, that
 * failure is news. Throws `VendorApiError` (not found, auth, …) and then nothing is stored.
 */
export async function baselineTest(
  vendor: VendorClient,
  testId: number,
  who: Who,
): Promise<TestSubscription> {
  const { test, runs } = await readBaselineRuns(vendor, testId, who.now);
  const at = who.now.toISOString();
  // Everything already finished counts as seen; runs still running may yet fail and alert.
  const mark = advanceWatermark({ id: 0, at: null }, runs, who.now);
  const floor = who.now.getTime() - ANCHOR_LAG_MS;
  const later = mark.at !== null && Date.parse(mark.at) > floor ? Date.parse(mark.at) : floor;
  // A run still running (for under an hour) holds the anchor back to its creation: polls ask
  // for runs since shortly before the anchor, and its failure must fall inside their window.
  const running = runs
    .filter((run) => !isSettled(run, who.now))
    .map(createdMs)
    .filter((t): t is number => t !== null);
  const anchor = new Date(Math.min(later, ...running)).toISOString();
  return {
    kind: "test",
    channelId: who.channelId,
    testId,
    testName: test.name,
    createdAt: at,
    createdBy: who.userId,
    paused: null,
    lastError: null,
    lastChangeAt: at,
    lastRunId: mark.id,
    lastRunAt: anchor,
    handledRunIds: runs.filter((run) => run.id > mark.id && isSettled(run, who.now)).map((run) => run.id),
    streak: null,
    // Runs running for over an hour are passed as abandoned, but may still fail: watched, as
    // the polls watch the ones they pass (see test-runs.ts).
    pendingRuns: runs
      .filter((run) => run.status === "running" && isSettled(run, who.now))
      .filter((run) => who.now.getTime() - (createdMs(run) ?? 0) < PENDING_FOR_MS)
      .map((run) => ({ id: run.id, createdAt: run.createdAt }))
      .sort((a, b) => b.id - a.id)
      .slice(0, MAX_PENDING),
  };
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
    path: page.collection.shortenedPath,
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
