import { describe, expect, it } from "vitest";
import { type FetchPage, paginatePages } from "../../src/decipher/paginate.ts";
import type { ListEnvelope } from "../../src/decipher/types.ts";
import { createVendorClient, type VendorClient } from "../../src/decipher/vendor-client.ts";
import { isVendorApiError } from "../../src/decipher/vendor-errors.ts";
import { API_KEY, fakeDecipher, json, recordingFetch } from "./fake-api.ts";
import { collectionSession, collectionSessionList } from "./fixtures.ts";

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** The items of every page `paginatePages` yields, in order. */
async function* items<T>(
  fetchPage: FetchPage<ListEnvelope<T>>,
  options: { maxPages?: number; cursor?: string } = {},
): AsyncGenerator<T> {
  for await (const p of paginatePages(fetchPage, options)) yield* p.data;
}

type RunQuery = Parameters<VendorClient["listTestRuns"]>[1];
const runsOf = (c: VendorClient, query: RunQuery, options: { maxPages?: number; cursor?: string } = {}) =>
  items((cursor) => c.listTestRuns(101, cursor === undefined ? query : { ...query, cursor }), options);

function client(runs = 45, sessions = 27) {
  const { fetch, calls } = recordingFetch(fakeDecipher({ runs, sessions }));
  return {
    client: createVendorClient({ baseUrl: "https://api.decipher.test", apiKey: API_KEY, fetch }),
    calls,
  };
}

/** Pages scripted by cursor, to misbehave on purpose. */
function scripted(pages: Record<string, ListEnvelope<number>>) {
  const asked: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined) => {
    asked.push(cursor);
    const page = pages[cursor ?? "start"];
    if (!page) throw new Error(`no page for ${cursor}`);
    return page;
  };
  return { fetchPage, asked };
}

const page = (data: number[], nextCursor: string | null): ListEnvelope<number> => ({
  object: "list",
  data,
  hasMore: nextCursor !== null,
  nextCursor,
});

describe("paginatePages", () => {
  it("follows nextCursor to exhaustion with no duplicates or gaps", async () => {
    const { client: c, calls } = client(45);
    const runs = await collect(runsOf(c, { limit: 10 }));
    expect(runs.map((r) => r.id)).toEqual(Array.from({ length: 45 }, (_, i) => 1000 - i));
    expect(calls).toHaveLength(5);
    expect(calls[0]?.url.searchParams.has("cursor")).toBe(false);
    for (const call of calls) expect(call.url.searchParams.get("limit")).toBe("10");
    expect(new Set(calls.map((call) => call.url.searchParams.get("cursor"))).size).toBe(5);
  });

  it("keeps the filters on every page", async () => {
    const { client: c, calls } = client(45);
    const failed = await collect(runsOf(c, { status: "failed", limit: 4 }));
    expect(failed).toHaveLength(15);
    expect(failed.every((r) => r.status === "failed")).toBe(true);
    for (const call of calls) expect(call.url.searchParams.get("status")).toBe("failed");
  });

  it("stops at the page cap", async () => {
    const { client: c, calls } = client(45);
    const runs = await collect(runsOf(c, { limit: 5 }, { maxPages: 3 }));
    expect(runs).toHaveLength(15);
    expect(calls).toHaveLength(3);
  });

  it("resumes from a caller's cursor using the page's own nextCursor", async () => {
    const { client: c } = client(45);
    const first = await collect(
      paginatePages((cur) => c.listTestRuns(101, { limit: 20, cursor: cur }), { maxPages: 1 }),
    );
    const cursor = first[0]?.nextCursor ?? undefined;
    expect(cursor).toBeTypeOf("string");
    const rest = await collect(runsOf(c, { limit: 20 }, { cursor }));
    expect([...(first[0]?.data ?? []), ...rest].map((r) => r.id)).toEqual(
      Array.from({ length: 45 }, (_, i) => 1000 - i),
    );
  });

  it("detects a repeated cursor after yielding what it had", async () => {
    const { fetchPage, asked } = scripted({ start: page([1, 2], "a"), a: page([3], "b"), b: page([4], "a") });
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const n of items(fetchPage)) seen.push(n);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([undefined, "a", "b"]);
    expect(isVendorApiError(caught) && caught.type === "invalid_response").toBe(true);
    expect(String(caught)).toMatch(/repeated/);
  });

  it("detects a server that echoes the starting cursor", async () => {
    const { fetchPage } = scripted({ x: page([1], "x") });
    await expect(collect(items(fetchPage, { cursor: "x" }))).rejects.toThrow(/repeated/);
  });

  it("rejects hasMore without a cursor instead of stopping silently", async () => {
    const { fetchPage } = scripted({ start: { object: "list", data: [1], hasMore: true, nextCursor: null } });
    await expect(collect(items(fetchPage))).rejects.toThrow(/hasMore but gives no nextCursor/);
  });

  it("stops when hasMore is false even if a cursor is present", async () => {
    const { fetchPage, asked } = scripted({
      start: { object: "list", data: [1], hasMore: false, nextCursor: "z" },
    });
    expect(await collect(items(fetchPage))).toEqual([1]);
    expect(asked).toHaveLength(1);
  });

  it("rejects a page cap that is not a whole positive number", async () => {
    const { fetchPage } = scripted({ start: page([1], null) });
    await expect(collect(items(fetchPage, { maxPages: 0 }))).rejects.toThrow(/maxPages/);
    await expect(collect(items(fetchPage, { maxPages: 1.5 }))).rejects.toThrow(/maxPages/);
  });

  it("pages collection sessions with their includes", async () => {
    const { fetch, calls } = recordingFetch((call) => {
      const cursor = call.url.searchParams.get("cursor");
      const list = collectionSessionList(
        [collectionSession(`00000000-0000-4000-8000-00000000000${cursor ? 2 : 1}`)],
        cursor ? {} : { hasMore: true, nextCursor: "p2" },
      );
      return json(200, { ...list, includes: ["timeline"] });
    });
    const c = createVendorClient({ baseUrl: "https://api.decipher.test", apiKey: API_KEY, fetch });
    const sessions = await collect(
      items((cursor) =>
        c.listCollectionSessions(501, { include: ["timeline"], limit: 1, ...(cursor ? { cursor } : {}) }),
      ),
    );
    expect(sessions.map((s) => s.id.slice(-1))).toEqual(["1", "2"]);
    expect(calls.map((call) => call.url.searchParams.get("include"))).toEqual(["timeline", "timeline"]);
  });
});
