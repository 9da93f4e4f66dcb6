/**
 * Cursor pagination as async iterators. Always bounded: a Worker invocation has a small
 * subrequest budget, so an unbounded walk is a bug waiting for a big organization.
 */

import type { ListEnvelope } from "./types.ts";
import { invalidRequest, VendorApiError } from "./vendor-errors.ts";

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
