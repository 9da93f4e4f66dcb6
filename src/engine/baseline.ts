import { paginatePages } from "../decipher/paginate.ts";
import type { VendorClient } from "../decipher/vendor-client.ts";
import { type LedgerRow, plausibleTime } from "../model/run-ledger.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";

/**
 * Runs read at subscribe time: the latest page, and everything of the last 70 minutes (a run
 * still running is under an hour old, and polls read from 10 minutes before the anchor).
 */
const BASELINE_RUNS = 100;
export const RECENT_WINDOW_MS = 70 * 60 * 1000;
const RECENT_PAGES = 3;

export type Who = { channelId: string; userId: string; now: Date };

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
 * Decipher lists runs in: the runs read now travel with the subscription to its object,
 * which writes them into its ledger (finished ones as `baseline`; running ones may still
 * fail, and that failure is news). Throws `VendorApiError` (not found, auth, …) and then
 * nothing is stored.
 */
export async function baselineTest(
  vendor: VendorClient,
  testId: number,
  who: Who,
): Promise<TestSubscription> {
  const { test, runs } = await readBaselineRuns(vendor, testId, who.now);
  const at = who.now.toISOString();
  const finished = runs.filter((run) => run.status !== "running");
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
    lastRunId: finished.reduce((max, run) => Math.max(max, run.id), 0),
    lastRunAt: null,
    streak: null,
    baselineRuns: runs.map((run) => ({
      id: run.id,
      status: run.status,
      createdAt: run.createdAt,
      triggeredBy: run.triggeredBy,
    })),
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

/** The runs read at subscribe time as ledger rows: finished ones are baseline, running ones still owed a fate. */
export function baselineRows(
  runs: NonNullable<Extract<Subscription, { kind: "test" }>["baselineRuns"]>,
  now: Date,
): LedgerRow[] {
  const at = now.toISOString();
  return runs.map((run) => {
    const running = run.status === "running";
    return {
      id: run.id,
      status: running ? "running" : run.status === "failed" ? "failed" : "passed",
      createdAt: plausibleTime(run.createdAt, now),
      firstSeen: at,
      trigger: run.triggeredBy ?? null,
      fate: running ? null : "baseline",
      ts: null,
      parentTs: null,
      reason: null,
      decidedAt: running ? null : at,
    } satisfies LedgerRow;
  });
}
