import type { TestSubscription } from "../model/subscription.ts";
import { paginatePages } from "../vendor/paginate.ts";
import type { RejectedRun, TestInfo, TestRun } from "../vendor/types.ts";
import type { VendorClient } from "../vendor/vendor-client.ts";
import { ABANDONED_AFTER_MS, createdMs } from "./run-window.ts";

const PAGE_SIZE = 100;
const MAX_PAGES = 3;
/** Slack between the vendor's `createdAt` and whatever time `since` filters on. */
export const SINCE_MARGIN_MS = 10 * 60 * 1000;

/**
 * The runs one poll looked at. `complete` means every run since the anchor was read; when it
 * is false, `readIsNewest` says which end of the window the read runs are (the vendor's list
 * order is not documented, so it is taken from the ids of what came back).
 */
export type RunWindow = {
  test: TestInfo;
  runs: TestRun[];
  rejected: RejectedRun[];
  complete: boolean;
  readIsNewest: boolean;
};

type Pages = {
  test: TestInfo;
  runs: TestRun[];
  rejected: RejectedRun[];
  complete: boolean;
  newestFirst: boolean;
};

async function readPages(
  vendor: VendorClient,
  testId: number,
  status: "all" | "failed",
  since: Date | undefined,
  maxPages: number,
  /** Runs at or below this id are settled: a newest-first read stops once it reaches them. */
  floorId = 0,
): Promise<Pages> {
  const runs: TestRun[] = [];
  const rejected: RejectedRun[] = [];
  let newestFirst = true;
  let test: TestInfo | undefined;
  let complete = false;
  let pageNo = 0;
  const pages = paginatePages(
    (cursor) =>
      vendor.listTestRuns(testId, {
        status,
        limit: PAGE_SIZE,
        ...(since ? { since } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    // Without a time bound the first page is all a poll wants (a test that never ran).
    { maxPages: since ? maxPages : 1 },
  );
  for await (const page of pages) {
    test = page.test;
    if (pageNo === 0 && page.data.length > 1) {
      newestFirst = (page.data[0] as TestRun).id >= (page.data[page.data.length - 1] as TestRun).id;
    }
    pageNo++;
    runs.push(...page.data);
    rejected.push(...page.rejected);
    complete = !since || !page.hasMore;
    // Newest first and already down to settled runs: everything newer has been read. Without
    // this, a burst within the time margin would cost every later idle poll several pages.
    const oldest = Math.min(...page.data.map((run) => run.id));
    if (!complete && newestFirst && floorId > 0 && oldest <= floorId) {
      complete = true;
      break;
    }
  }
  return { test: test as TestInfo, runs, rejected, complete, newestFirst };
}

/**
 * Runs since shortly before the watermark. Filtering by time, not by position, keeps this
 * correct whatever order the API lists runs in, and an idle poll is one request. When the
 * window holds more runs than a poll reads and they came newest first, the failed ones are
 * read on their own, so a backlog can delay a recovery note but never lose a failure.
 */
export async function readRunWindow(vendor: VendorClient, sub: TestSubscription): Promise<RunWindow> {
  // A test with no settled run yet is anchored at the subscription itself.
  const anchor = Date.parse(sub.lastRunAt ?? sub.createdAt);
  const since = Number.isFinite(anchor) ? new Date(anchor - SINCE_MARGIN_MS) : undefined;
  const all = await readPages(vendor, sub.testId, "all", since, MAX_PAGES, sub.lastRunId);
  const window = { ...all, readIsNewest: all.newestFirst };
  if (all.complete || !all.newestFirst) return window;
  const failed = await readPages(vendor, sub.testId, "failed", since, MAX_PAGES, sub.lastRunId);
  const byId = new Map(all.runs.map((run) => [run.id, run]));
  for (const run of failed.runs) byId.set(run.id, run);
  return { ...window, runs: [...byId.values()], rejected: [...all.rejected, ...failed.rejected] };
}

/**
 * Which read runs the watermark may pass. After a full read, all of them. When the read runs
 * are the oldest of the window, everything up to them was read, so all of them too. When they
 * are the newest, the unread runs are older (and their failures were read on their own), so
 * the watermark passes the read runs only once those unread ones are old enough to count as
 * settled: a run among them still running could otherwise fail later unseen.
 */
export function passable(window: RunWindow, candidates: TestRun[], now: Date): TestRun[] {
  if (window.complete || !window.readIsNewest) return candidates;
  const times = window.runs.map(createdMs).filter((t): t is number => t !== null);
  const oldestRead = times.length > 0 ? Math.min(...times) : Number.NaN;
  return now.getTime() - oldestRead > ABANDONED_AFTER_MS ? candidates : [];
}

/**
 * Runs the watermark passed while they were still running (over an hour) may fail later.
 * While any is watched, one more request per poll asks for failed runs since the oldest.
 */
export async function readLateFailures(vendor: VendorClient, sub: TestSubscription): Promise<TestRun[]> {
  const pending = sub.pendingRuns ?? [];
  if (pending.length === 0) return [];
  const oldest = Math.min(...pending.map((p) => Date.parse(p.createdAt)).filter(Number.isFinite));
  if (!Number.isFinite(oldest)) return [];
  const ids = new Set(pending.map((p) => p.id));
  const page = await readPages(vendor, sub.testId, "failed", new Date(oldest - SINCE_MARGIN_MS), 1);
  return page.runs.filter((run) => ids.has(run.id));
}
