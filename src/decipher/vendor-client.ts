/**
 * Typed client for the five read endpoints of the Decipher API (docs/decipher-api.md).
 * Every answer is validated (schema.ts); every failure is a `VendorApiError` (errors.ts).
 */
import * as v from "valibot";
import { isRecord, parseHttpUrl } from "../util/checks.ts";
import {
  buildQuery,
  type CollectionSessionListParams,
  numericId,
  type SessionListParams,
  type TestRunListParams,
  uuid,
} from "./query.ts";
import { DEFAULT_RETRY, type RetryOptions, type RetryPolicy } from "./retry.ts";
import {
  collectionSessionListSchema,
  sessionClicksSchema,
  sessionListSchema,
  sessionTimelineSchema,
  testRunPageSchema,
  testRunSchema,
} from "./schema.ts";
import { get, issuePath, type Settings, scrub, transportOf } from "./transport.ts";
import type {
  CollectionSessionList,
  RejectedRun,
  SessionClicks,
  SessionList,
  SessionTimeline,
  TestRun,
  TestRunPage,
} from "./types.ts";
import { VendorApiError } from "./vendor-errors.ts";

export type {
  CollectionSessionListParams,
  SessionListParams,
  TestRunListParams,
  TimeBound,
} from "./query.ts";
export type { RetryOptions } from "./retry.ts";

export type VendorClientOptions = {
  /** API origin, e.g. `https://api.getdecipher.com`; paths under `/api/v1` are appended. */
  baseUrl: string;
  /** Organization API key; sent only as `Authorization: Bearer`, never logged or echoed. */
  apiKey: string;
  /** Swap the transport (tests, instrumentation). Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Per attempt, covering headers and body. Default 8 s. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Waits between attempts; inject to record or skip them. */
  sleep?: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Clock for `Retry-After` HTTP-dates. */
  now?: () => number;
};

export type VendorClient = {
  /** `GET /api/v1/tests/{testId}/runs`: one page of runs plus the `test` object. */
  listTestRuns(testId: number | string, query?: TestRunListParams): Promise<TestRunPage>;
  /** `GET /api/v1/monitoring/issue-collections/{collectionId}/sessions`: one page plus the `collection`. */
  listCollectionSessions(
    collectionId: number | string,
    query?: CollectionSessionListParams,
  ): Promise<CollectionSessionList>;
  /** `GET /api/v1/sessions`: one page of session summaries. */
  listSessions(query?: SessionListParams): Promise<SessionList>;
  /** `GET /api/v1/sessions/{sessionId}/timeline`: the AI timeline (404 when none exists). */
  getSessionTimeline(sessionId: string): Promise<SessionTimeline>;
  /** `GET /api/v1/sessions/{sessionId}/clicks`: all clicks with time-limited screenshot URLs. */
  getSessionClicks(sessionId: string): Promise<SessionClicks>;
};

const DEFAULT_TIMEOUT_MS = 8_000;

export function createVendorClient(options: VendorClientOptions): VendorClient {
  const t = transportOf({
    baseUrl: checkBaseUrl(options.baseUrl),
    apiKey: checkApiKey(options.apiKey),
    timeoutMs: positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs"),
    policy: retryPolicy(options.retry),
    sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
    fetch: options.fetch,
  });
  return {
    async listTestRuns(testId, query) {
      const op = "listTestRuns";
      const id = numericId(testId, "testId", op);
      const params = buildQuery(query, { limitMax: 100, status: true }, op);
      const page = await get(t, op, `/api/v1/tests/${id}/runs`, params, testRunPageSchema);
      return { ...page, ...readRuns(t, page.data) };
    },
    async listCollectionSessions(collectionId, query) {
      const op = "listCollectionSessions";
      const id = numericId(collectionId, "collectionId", op);
      const params = buildQuery(query, { limitMax: 50, include: true }, op);
      return get(
        t,
        op,
        `/api/v1/monitoring/issue-collections/${id}/sessions`,
        params,
        collectionSessionListSchema,
      );
    },
    async listSessions(query) {
      const op = "listSessions";
      const params = buildQuery(query, { limitMax: 100, text: ["userEmail", "userId", "url"] }, op);
      return get(t, op, "/api/v1/sessions", params, sessionListSchema);
    },
    async getSessionTimeline(sessionId) {
      const op = "getSessionTimeline";
      const id = uuid(sessionId, "sessionId", op);
      return get(t, op, `/api/v1/sessions/${id}/timeline`, new URLSearchParams(), sessionTimelineSchema);
    },
    async getSessionClicks(sessionId) {
      const op = "getSessionClicks";
      const id = uuid(sessionId, "sessionId", op);
      return get(t, op, `/api/v1/sessions/${id}/clicks`, new URLSearchParams(), sessionClicksSchema);
    },
  };
}

/** A page's runs, each checked on its own: the readable ones, and the others set aside with the field that failed. */
function readRuns(t: Settings, items: readonly unknown[]): { data: TestRun[]; rejected: RejectedRun[] } {
  const data: TestRun[] = [];
  const rejected: RejectedRun[] = [];
  items.forEach((item, index) => {
    const run = v.safeParse(testRunSchema, item);
    if (run.success) {
      data.push(run.output);
      return;
    }
    const issue = run.issues[0];
    const raw = isRecord(item) ? item.id : null;
    const id = typeof raw === "number" ? raw : null;
    const path = issuePath(issue.path);
    rejected.push({
      index,
      id,
      field: `data[${index}]${path ? `.${path}` : ""}`,
      message: scrub(t, issue.message),
    });
  });
  return { data, rejected };
}

function checkBaseUrl(value: unknown): string {
  const url = typeof value === "string" ? parseHttpUrl(value.trim()) : null;
  if (url) return url.href.replace(/\/+$/, "");
  throw new VendorApiError("Invalid baseUrl: must be an http(s) URL", {
    status: null,
    type: "invalid_request",
    field: "baseUrl",
  });
}

/** Checked here because `Headers` would otherwise throw an error quoting the bad value. */
function checkApiKey(value: unknown): string {
  if (typeof value === "string" && /^[\x21-\x7e]+$/.test(value.trim())) return value.trim();
  throw new VendorApiError("Invalid apiKey: must be a non-empty token of printable ASCII without spaces", {
    status: null,
    type: "invalid_request",
    field: "apiKey",
  });
}

function positive(value: number, field: string): number {
  if (Number.isFinite(value) && value > 0) return value;
  throw new VendorApiError(`Invalid ${field}: must be a positive number`, {
    status: null,
    type: "invalid_request",
    field,
  });
}

function retryPolicy(options: RetryOptions | undefined): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1 || policy.attempts > 10) {
    throw new VendorApiError("Invalid retry.attempts: must be a whole number from 1 to 10", {
      status: null,
      type: "invalid_request",
      field: "retry.attempts",
    });
  }
  for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const) {
    if (!Number.isFinite(policy[key]) || policy[key] < 0) {
      throw new VendorApiError(`Invalid retry.${key}: must be a number of milliseconds >= 0`, {
        status: null,
        type: "invalid_request",
        field: `retry.${key}`,
      });
    }
  }
  return policy;
}
