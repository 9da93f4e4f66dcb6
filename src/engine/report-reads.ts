import type { Subscription } from "../model/subscription.ts";
import { paginatePages } from "../vendor/paginate.ts";
import type { IssueCollection } from "../vendor/types.ts";
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
const COLLECTION_PAGES = 3;

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
