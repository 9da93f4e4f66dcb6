/**
 * An in-process stand-in for the Decipher API, injected as `fetch`. It answers like the real
 * service does (docs/decipher-api.md): Bearer or X-API-Key auth with 401 `authentication_error`,
 * 404 `not_found_error` for other ids, 422 `validation_error` with `field` for bad
 * parameters, opaque cursors, and scripted faults (429 with Retry-After, 5xx, hangs,
 * malformed bodies) for the retry paths.
 */
import { createVendorClient } from "../../src/decipher/vendor-client.ts";
import { isVendorApiError, type VendorApiError } from "../../src/decipher/vendor-errors.ts";
import { clicks, session, testRun, testRunList, timeline } from "./fixtures.ts";

export type Call = { url: URL; method: string; headers: Headers };
export type Handler = (
  call: Call,
  n: number,
  signal: AbortSignal | undefined,
) => Response | Promise<Response>;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function vendorError(
  status: number,
  type: string,
  message: string,
  extra: { code?: string; field?: string; headers?: Record<string, string> } = {},
): Response {
  const error = {
    type,
    code: extra.code ?? type.replace(/_error$/, ""),
    message,
    field: extra.field ?? null,
  };
  return json(status, { error }, extra.headers);
}

/** Wraps a handler as `fetch`, recording every call so tests can count attempts. */
export function recordingFetch(handler: Handler) {
  const calls: Call[] = [];
  const fetch: typeof globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const call = { url: new URL(request.url), method: request.method, headers: new Headers(request.headers) };
    calls.push(call);
    return handler(call, calls.length, init?.signal ?? undefined);
  }) as typeof fetch;
  return { fetch, calls };
}

/** A fetch that never answers until aborted, then rejects the way platform fetch does. */
/** A client on `handler`'s answers, waiting no time between attempts, and the calls it made. */
export function clientOn(handler: Handler) {
  const { fetch, calls } = recordingFetch(handler);
  const client = createVendorClient({
    baseUrl: "https://api.decipher.test",
    apiKey: API_KEY,
    fetch,
    sleep: async () => {},
  });
  return { client, calls };
}

export function hangUntilAborted(signal: AbortSignal | undefined): Promise<Response> {
  return new Promise((_, reject) => {
    signal?.addEventListener("abort", () =>
      reject(new DOMException("The operation was aborted", "AbortError")),
    );
  });
}

export const API_KEY = "dcp_live_s3cr3t_key_for_tests";

type FakeOptions = { apiKey?: string; runs?: number; sessions?: number };

/** A small fake organization: test 101 with `runs` runs, `sessions` sessions for jane@acme.com. */
export function fakeDecipher(options: FakeOptions = {}): Handler {
  const apiKey = options.apiKey ?? API_KEY;
  const runs = Array.from({ length: options.runs ?? 45 }, (_, i) =>
    testRun(1000 - i, { status: i % 3 === 0 ? "failed" : "passed" }),
  );
  const sessions = Array.from({ length: options.sessions ?? 27 }, (_, i) =>
    session(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`),
  );
  return (call) => {
    const auth = call.headers.get("authorization");
    const key = auth?.startsWith("Bearer ") ? auth.slice(7) : call.headers.get("x-api-key");
    if (key !== apiKey) return vendorError(401, "authentication_error", "Invalid API key");
    if (call.method !== "GET") return vendorError(405, "invalid_request_error", "Method not allowed");
    const q = call.url.searchParams;
    const path = call.url.pathname;

    let match = /^\/api\/v1\/tests\/(\d+)\/runs$/.exec(path);
    if (match) {
      if (match[1] !== "101")
        return vendorError(404, "not_found_error", "Test not found", { code: "not_found" });
      const status = q.get("status") ?? "all";
      if (!["passed", "failed", "running", "all"].includes(status)) {
        return vendorError(422, "validation_error", "Invalid status", { field: "status" });
      }
      const filtered = runs.filter((r) => status === "all" || r.status === status);
      const page = pageOf(filtered, q, 100, 20);
      if (page instanceof Response) return page;
      return json(200, testRunList(page.items, page));
    }
    if (path === "/api/v1/sessions") {
      const email = q.get("userEmail");
      const filtered = sessions.filter((s) => email === null || s.userEmail === email);
      const page = pageOf(filtered, q, 100, 20);
      if (page instanceof Response) return page;
      return json(200, {
        object: "list",
        data: page.items,
        hasMore: page.hasMore,
        nextCursor: page.nextCursor,
      });
    }
    match = /^\/api\/v1\/sessions\/([^/]+)\/(timeline|clicks)$/.exec(path);
    if (match) {
      const id = match[1] ?? "";
      if (!sessions.some((s) => s.id === id)) {
        return vendorError(404, "not_found_error", "Session or timeline not found", { code: "not_found" });
      }
      return json(200, match[2] === "timeline" ? timeline(id) : clicks(id));
    }
    return vendorError(404, "not_found_error", "Not found", { code: "not_found" });
  };
}

/** Opaque cursors (base64 offsets), as a real cursor API hands out; tampered ones are 422. */
function pageOf<T>(items: T[], q: URLSearchParams, max: number, fallback: number) {
  const limit = q.has("limit") ? Number(q.get("limit")) : fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    return vendorError(422, "validation_error", `limit must be between 1 and ${max}`, { field: "limit" });
  }
  let offset = 0;
  const cursor = q.get("cursor");
  if (cursor !== null) {
    let decoded: RegExpExecArray | null = null;
    try {
      decoded = /^o:(\d+)$/.exec(atob(cursor));
    } catch {
      // not base64: tampered
    }
    if (!decoded) return vendorError(422, "validation_error", "Invalid cursor", { field: "cursor" });
    offset = Number(decoded[1]);
  }
  const slice = items.slice(offset, offset + limit);
  const hasMore = offset + limit < items.length;
  return { items: slice, hasMore, nextCursor: hasMore ? btoa(`o:${offset + limit}`) : null };
}

/** The `VendorApiError` a call fails with; fails the test when the call succeeds or throws anything else. */
export async function failure(promise: Promise<unknown>): Promise<VendorApiError> {
  try {
    await promise;
  } catch (error) {
    if (isVendorApiError(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}
