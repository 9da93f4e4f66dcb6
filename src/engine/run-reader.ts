import { paginatePages } from "../decipher/paginate.ts";
import type { RejectedRun, TestInfo, TestRun } from "../decipher/types.ts";
import type { VendorClient } from "../decipher/vendor-client.ts";
import type { UnreadWindow } from "../model/subscription.ts";
import { createdMs } from "./run-window.ts";

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
  /** True for a run the ledger already holds as it is now: a newest-first page of only these ends the read. */
  unchanged: (run: TestRun) => boolean = () => false,
  /** When the oldest run the ledger holds as running was created: the read goes back at least that far. */
  oldestRunningAt: number | null = null,
  until?: Date,
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
        ...(until ? { until } : {}),
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
    // Newest first and nothing new on this page: what is newer was read already. Without this,
    // a burst inside the window would cost every later idle poll several pages.
    // A run still running below this page may have finished since: the read goes on to it.
    const reachesRunning =
      oldestRunningAt === null ||
      page.data.some((run) => (createdMs(run) ?? Number.POSITIVE_INFINITY) <= oldestRunningAt);
    if (!complete && newestFirst && page.data.length > 0 && reachesRunning && page.data.every(unchanged)) {
      complete = true;
      break;
    }
  }
  return { test: test as TestInfo, runs, rejected, complete, newestFirst };
}

/**
 * Runs since `since`. Filtering by time, not by position, keeps this correct whatever order
 * the API lists runs in, and an idle poll is one request. When the window holds more runs
 * than a poll reads and they came newest first, the failed ones are read on their own, so a
 * backlog can delay a recovery note but never lose a failure.
 */
export async function readRunWindow(
  vendor: VendorClient,
  testId: number,
  since: Date,
  unchanged: (run: TestRun) => boolean = () => false,
  /** Runs of the window went unread in an earlier poll: read the failed ones on their own too. */
  alsoFailed = false,
  oldestRunningAt: number | null = null,
): Promise<RunWindow & { truncated: boolean }> {
  const all = await readPages(vendor, testId, "all", since, MAX_PAGES, unchanged, oldestRunningAt);
  const truncated = !all.complete && all.newestFirst;
  const window = { ...all, readIsNewest: all.newestFirst, truncated };
  if (!truncated && !alsoFailed) return window;
  const failed = await readPages(vendor, testId, "failed", since, MAX_PAGES, unchanged);
  const byId = new Map(all.runs.map((run) => [run.id, run]));
  for (const run of failed.runs) byId.set(run.id, run);
  return { ...window, runs: [...byId.values()], rejected: [...all.rejected, ...failed.rejected] };
}

/**
 * Runs that were still running when they left the read window may fail later: while any is
 * watched, one more request per poll asks for failed runs since the oldest.
 */
export async function readLateFailures(
  vendor: VendorClient,
  testId: number,
  watched: readonly { id: number; createdAt: string }[],
): Promise<TestRun[]> {
  if (watched.length === 0) return [];
  const oldest = Math.min(...watched.map((p) => Date.parse(p.createdAt)).filter(Number.isFinite));
  if (!Number.isFinite(oldest)) return [];
  const ids = new Set(watched.map((p) => p.id));
  const page = await readPages(vendor, testId, "failed", new Date(oldest - SINCE_MARGIN_MS), 1);
  return page.runs.filter((run) => ids.has(run.id));
}

/**
 * The failed runs of a part of a window an earlier read left unread, up to a poll's pages: a
 * backlog deeper than one poll reads (the bot stopped for hours) is read over the next polls,
 * never skipped. `rest` is what is still unread after this read, or null.
 */
export async function readUnreadFailures(
  vendor: VendorClient,
  testId: number,
  window: UnreadWindow,
): Promise<{ runs: TestRun[]; rejected: RejectedRun[]; rest: UnreadWindow | null }> {
  const read = await readPages(
    vendor,
    testId,
    "failed",
    new Date(window.since),
    MAX_PAGES,
    () => false,
    null,
    new Date(window.until),
  );
  const times = read.runs.map(createdMs).filter((t): t is number => t !== null && Number.isFinite(t));
  if (read.complete || times.length === 0) return { runs: read.runs, rejected: read.rejected, rest: null };
  // Newest first, the rest is older than the oldest read; oldest first, newer than the newest.
  const rest = read.newestFirst
    ? { since: window.since, until: new Date(Math.min(...times)).toISOString() }
    : { since: new Date(Math.max(...times)).toISOString(), until: window.until };
  // A window that did not shrink (a vendor that ignores `since`/`until`) would be read again
  // at every poll for ever: it is given up, and the next capped read remembers what it leaves.
  const shrank =
    Date.parse(rest.until) - Date.parse(rest.since) < Date.parse(window.until) - Date.parse(window.since);
  return { runs: read.runs, rejected: read.rejected, rest: shrank ? rest : null };
}

/** One window over two unread parts: reading a known run again costs a little and changes nothing. */
export function unreadUnion(a: UnreadWindow | null, b: UnreadWindow | null): UnreadWindow | null {
  if (!a || !b) return a ?? b;
  return {
    since: Date.parse(a.since) <= Date.parse(b.since) ? a.since : b.since,
    until: Date.parse(a.until) >= Date.parse(b.until) ? a.until : b.until,
  };
}
