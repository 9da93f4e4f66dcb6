import { paginatePages } from "../decipher/paginate.ts";
import type { IssueCollection } from "../decipher/types.ts";
import type { Subscription } from "../model/subscription.ts";
import { mapLimit } from "../util/map-limit.ts";
import type { SubrequestBudget } from "../util/subrequest-budget.ts";
import type { EngineDeps } from "./engine-deps.ts";

/**
 * What the daily digest (src/engine/compose-digest.ts) and the weekly report
 * (src/engine/weekly-report.ts) read and decide alike, so the two cannot drift apart.
 */

/** How long a due digest or weekly report waits for Decipher before going out with what it has. */
const GIVE_UP_WAITING_MS = 30 * 60 * 1000;

/**
 * Decipher is down altogether (it answered for none of the channel's subscriptions) and the
 * message is not yet 30 minutes late: wait for it rather than send a message of unknowns.
 */
export function waitForDecipher(
  active: readonly Subscription[],
  failed: number,
  dueAt: string,
  now: Date,
): boolean {
  const lateMs = now.getTime() - Date.parse(dueAt);
  return active.length > 0 && failed === active.length && lateMs < GIVE_UP_WAITING_MS;
}

/** Pages of sessions (of 50) read for a collection's figure; beyond them the figure is a floor. */
export const COLLECTION_PAGES = 3;

/** Sessions with issues since a time, from the vendor's own time window; `atLeast` when the read stopped at its cap. */
export type SessionsSince = { count: number; atLeast: boolean };

/** A collection as Decipher has it now, and its sessions since `since`. */
export async function readCollectionSessions(
  deps: EngineDeps,
  collectionId: number,
  since: Date,
): Promise<{ collection: IssueCollection; sessions: SessionsSince }> {
  let collection: IssueCollection | undefined;
  let count = 0;
  let more = false;
  for await (const page of paginatePages(
    (cursor) =>
      deps.vendor.listCollectionSessions(collectionId, { limit: 50, since, ...(cursor ? { cursor } : {}) }),
    { maxPages: COLLECTION_PAGES },
  )) {
    collection = page.collection;
    count += page.data.length;
    more = page.hasMore;
  }
  return { collection: collection as IssueCollection, sessions: { count, atLeast: more } };
}

/** Items a report reads at once. */
const READERS = 3;

/** Calls a report's post may make: the message, again without charts, then its text alone. */
export const POST_CALLS = 3;

/**
 * A report's reads, item by item, kept by its channel between calls: a channel of hundreds of
 * tests or collections is read over several invocations, each within its 50 subrequests.
 */
export type ReportReads<L> = ReadonlyMap<number, L>;

/**
 * Reads the items not in `done` while this invocation's budget has room for `pages` more calls
 * at each reader; the rest are left for the channel's next call. An item whose read failed gets
 * `failed(item)`, unless the budget ran out under it: it is read again next time. Returns this
 * call's reads, and whether every item is now read.
 */
export async function readWithinBudget<T, L>(
  budget: SubrequestBudget,
  items: readonly { id: number; item: T }[],
  done: ReportReads<L>,
  pages: number,
  read: (item: T) => Promise<L>,
  failed: (item: T) => L,
): Promise<{ reads: Map<number, L>; complete: boolean }> {
  const reads = new Map<number, L>();
  let left = 0;
  await mapLimit(
    items.filter(({ id }) => !done.has(id)),
    READERS,
    async ({ id, item }) => {
      if (!budget.has(pages * READERS)) {
        left++;
        return;
      }
      try {
        reads.set(id, await read(item));
      } catch {
        if (budget.has(1)) reads.set(id, failed(item));
        else left++;
      }
    },
  );
  return { reads, complete: left === 0 };
}
