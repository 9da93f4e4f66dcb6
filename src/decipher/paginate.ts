/**
 * Cursor pagination as async iterators. Always bounded: a Worker invocation has a small
 * subrequest budget, so an unbounded walk is a bug waiting for a big organization.
 */

import type { CollectionSessionListParams, SessionListParams, TestRunListParams } from "./query.ts";
import type { CollectionSession, ListEnvelope, SessionSummary, TestRun } from "./types.ts";
import type { VendorClient } from "./vendor-client.ts";
import { invalidRequest, VendorApiError } from "./vendor-errors.ts";

export type PageCaps = {
  /** Stop after this many items (may cut a page short). Default 1000. */
  maxItems?: number;
  /** Stop after this many requests. Default 20. */
  maxPages?: number;
};

export const DEFAULT_MAX_ITEMS = 1000;
export const DEFAULT_MAX_PAGES = 20;

export type FetchPage<P> = (cursor: string | undefined) => Promise<P>;

/**
 * Yields whole pages, following `nextCursor` while `hasMore`. Pages carry their own
 * `nextCursor`, so a caller that stops early can resume exactly where it stopped.
 * Throws `invalid_response` if the vendor repeats a cursor or claims more without one,
 * instead of looping until the budget runs out.
 */
export async function* paginatePages<P extends ListEnvelope<unknown>>(
  fetchPage: FetchPage<P>,
  options: { maxPages?: number; cursor?: string } = {},
): AsyncGenerator<P, void, undefined> {
  const maxPages = cap(options.maxPages, DEFAULT_MAX_PAGES, "maxPages");
  const seen = new Set<string>();
  let cursor = options.cursor;
  if (cursor !== undefined) seen.add(cursor);
  for (let page = 1; page <= maxPages; page++) {
    const result = await fetchPage(cursor);
    yield result;
    if (!result.hasMore) return;
    const next = result.nextCursor;
    if (!next) {
      throw loopError(`page ${page} says hasMore but gives no nextCursor`);
    }
    if (seen.has(next)) {
      throw loopError(`page ${page} repeated an earlier cursor; stopping to avoid a loop`);
    }
    seen.add(next);
    cursor = next;
  }
}

/** Yields items across pages, up to `maxItems` items and `maxPages` requests. */
export async function* paginate<T>(
  fetchPage: FetchPage<ListEnvelope<T>>,
  options: PageCaps & { cursor?: string } = {},
): AsyncGenerator<T, void, undefined> {
  const maxItems = cap(options.maxItems, DEFAULT_MAX_ITEMS, "maxItems");
  let count = 0;
  for await (const page of paginatePages(fetchPage, options)) {
    for (const item of page.data) {
      yield item;
      if (++count >= maxItems) return;
    }
  }
}

/**
 * Reads up to `maxPages` pages into one list, for callers that need the envelopes too (a test
 * run list's `test` and `rejected`): `pages` in order, `last` the last one, `complete` false
 * when the vendor had more than the pages read. The same loop checks as `paginatePages`.
 */
export async function collectPages<T, P extends ListEnvelope<T>>(
  fetchPage: FetchPage<P>,
  options: { maxPages?: number; cursor?: string } = {},
): Promise<{ items: T[]; pages: P[]; last: P; complete: boolean }> {
  const pages: P[] = [];
  for await (const page of paginatePages(fetchPage, options)) pages.push(page);
  // paginatePages yields at least one page or throws.
  const last = pages[pages.length - 1] as P;
  return { items: pages.flatMap((page) => page.data), pages, last, complete: !last.hasMore };
}

/** Every run of a test matching `query` (whose `cursor`, if any, is the starting point). */
export function paginateTestRuns(
  client: VendorClient,
  testId: number | string,
  query: TestRunListParams = {},
  caps: PageCaps = {},
): AsyncGenerator<TestRun, void, undefined> {
  const { cursor, ...rest } = query;
  return paginate((c) => client.listTestRuns(testId, withCursor(rest, c)), { ...caps, cursor });
}

export function paginateSessions(
  client: VendorClient,
  query: SessionListParams = {},
  caps: PageCaps = {},
): AsyncGenerator<SessionSummary, void, undefined> {
  const { cursor, ...rest } = query;
  return paginate((c) => client.listSessions(withCursor(rest, c)), { ...caps, cursor });
}

export function paginateCollectionSessions(
  client: VendorClient,
  collectionId: number | string,
  query: CollectionSessionListParams = {},
  caps: PageCaps = {},
): AsyncGenerator<CollectionSession, void, undefined> {
  const { cursor, ...rest } = query;
  return paginate((c) => client.listCollectionSessions(collectionId, withCursor(rest, c)), {
    ...caps,
    cursor,
  });
}

/** `query` with the page's cursor added (nothing added for the first page). */
export function withCursor<Q extends object>(query: Q, cursor: string | undefined): Q & { cursor?: string } {
  return cursor === undefined ? query : { ...query, cursor };
}

function cap(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value >= 1) return value;
  throw invalidRequest(field, "must be a whole number of at least 1");
}

function loopError(detail: string): VendorApiError {
  return new VendorApiError(`The Decipher API paginated inconsistently: ${detail}`, {
    status: null,
    type: "invalid_response",
    field: "nextCursor",
  });
}
