import type { CollectionSubscription, TestSubscription } from "../state/subscription-types.ts";
import type { VendorClient } from "../vendor/client.ts";
import { paginatePages } from "../vendor/paginate.ts";
import { advanceWatermark, isSettled } from "./run-window.ts";

/** Runs read at subscribe time: the latest page, and everything of the last 40 minutes. */
const BASELINE_RUNS = 100;
const RECENT_WINDOW_MS = 40 * 60 * 1000;
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
  const anchor = mark.at !== null && Date.parse(mark.at) > floor ? mark.at : new Date(floor).toISOString();
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
