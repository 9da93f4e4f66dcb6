import { paginatePages } from "../../src/decipher/paginate.ts";
import type {
  CollectionSessionListParams,
  SessionListParams,
  TestRunListParams,
} from "../../src/decipher/query.ts";
import type { CollectionSession, ListEnvelope, SessionSummary, TestRun } from "../../src/decipher/types.ts";
import type { VendorClient } from "../../src/decipher/vendor-client.ts";

/** Every item of a list read page by page, as the bot's readers page (`paginatePages`). */
async function* itemsOf<T, Q extends { cursor?: string }>(
  query: Q,
  read: (query: Q) => Promise<ListEnvelope<T>>,
): AsyncGenerator<T> {
  const { cursor, ...rest } = query;
  const pages = paginatePages((c) => read((c === undefined ? rest : { ...rest, cursor: c }) as Q), {
    cursor,
  });
  for await (const page of pages) yield* page.data;
}

export const paginateTestRuns = (client: VendorClient, testId: number, query: TestRunListParams = {}) =>
  itemsOf<TestRun, TestRunListParams>(query, (q) => client.listTestRuns(testId, q));

export const paginateSessions = (client: VendorClient, query: SessionListParams = {}) =>
  itemsOf<SessionSummary, SessionListParams>(query, (q) => client.listSessions(q));

export const paginateCollectionSessions = (
  client: VendorClient,
  collectionId: number,
  query: CollectionSessionListParams = {},
) =>
  itemsOf<CollectionSession, CollectionSessionListParams>(query, (q) =>
    client.listCollectionSessions(collectionId, q),
  );
