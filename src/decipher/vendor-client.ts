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
import { DEFAULT_RETRY, nextDelay, parseRetryAfter, type RetryOptions, type RetryPolicy } from "./retry.ts";
import {
  collectionSessionListSchema,
  errorBodySchema,
  sessionClicksSchema,
  sessionListSchema,
  sessionTimelineSchema,
  testRunPageSchema,
  testRunSchema,
} from "./schema.ts";
import type {
  CollectionSessionList,
  RejectedRun,
  SessionClicks,
  SessionList,
  SessionTimeline,
  TestRun,
  TestRunPage,
} from "./types.ts";
import { isVendorApiError, VendorApiError, type VendorErrorType } from "./vendor-errors.ts";

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
/**
 * Answers worth another attempt: 429 and every 5xx (a request with no HTTP answer is one
 * too); `nextDelay` has the last word. Any other 4xx is final at once.
 */
const retryableStatus = (status: number) => status === 429 || (status >= 500 && status <= 599);

/** Thrown by an attempt whose own timer fired, to tell it from a network failure. */
class AttemptTimeout extends Error {
  override readonly name = "TimeoutError";
}
const MAX_MESSAGE = 300;

/** Fallback `error.type` when an error body is missing or unreadable (docs/decipher-api.md, "Errors"). */
const TYPE_BY_STATUS: Record<number, VendorErrorType> = {
  401: "authentication_error",
  403: "authorization_error",
  404: "not_found_error",
  422: "validation_error",
  429: "rate_limit_error",
};

const DEFAULT_MESSAGE: Partial<Record<VendorErrorType, string>> = {
  authentication_error: "the API key is missing or was rejected",
  authorization_error: "the API key may not read this resource",
  not_found_error: "not found",
  validation_error: "a parameter was rejected",
  rate_limit_error: "too many requests",
  api_error: "the service had an internal error",
};

export function createVendorClient(options: VendorClientOptions): VendorClient {
  const baseUrl = checkBaseUrl(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs");
  const policy = retryPolicy(options.retry);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const transport = options.fetch;

  /**
   * One HTTP attempt with its own timeout over headers and body; the answer comes back fully
   * read, so a body that stalls is a timeout of this attempt (and retried like one). `send`
   * is called as a plain function: `fetch` called on a receiver (`options.fetch(…)`) is
   * rejected by workerd with "Illegal invocation".
   */
  async function attempt(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const send = transport ?? globalThis.fetch;
      const res = await send(input, { ...init, signal: controller.signal });
      const text = await res.text();
      return new Response(text === "" ? null : text, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (error) {
      throw controller.signal.aborted ? new AttemptTimeout() : error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Keeps the key out of anything the vendor might echo back. */
  const scrub = (text: string): string => text.split(apiKey).join("[redacted]").slice(0, MAX_MESSAGE);

  async function get<S extends v.GenericSchema>(
    operation: string,
    path: string,
    params: URLSearchParams,
    schema: S,
  ): Promise<v.InferOutput<S>> {
    const qs = params.toString();
    const url = `${baseUrl}${path}${qs ? `?${qs}` : ""}`;
    let attempts = 0;
    /** After a failed attempt: throw the error to give up, or wait before the next one. */
    const settle = async (error: VendorApiError): Promise<void> => {
      error.attempts = attempts;
      const delay = nextDelay(error, attempts, policy, random);
      if (delay === null) throw error;
      await sleep(delay);
    };
    const fail = (error: VendorApiError): VendorApiError => {
      error.attempts = attempts;
      return error;
    };

    // The attempts, each with its own timeout (`attempt`), and the waits between them
    // (`settle`): the platform's fetch needs nothing more here. Answers are read as text so
    // bad JSON is our error.
    let response: Response;
    let text: string;
    try {
      for (;;) {
        attempts++;
        try {
          response = await attempt(url, {
            method: "GET",
            headers: { Authorization: `Bearer ${apiKey}`, Accept: "application/json" },
          });
        } catch (error) {
          // An abort the attempt's own timer did not cause is nobody's to retry.
          if (error instanceof Error && error.name === "AbortError")
            throw fail(requestFailure(operation, error));
          await settle(requestFailure(operation, error));
          continue;
        }
        text = await response.text();
        if (!retryableStatus(response.status)) break;
        await settle(errorFromResponse(operation, response.status, response.headers, text));
      }
    } catch (error) {
      if (isVendorApiError(error)) throw error;
      throw fail(requestFailure(operation, error));
    }

    if (response.status < 200 || response.status > 299) {
      throw fail(errorFromResponse(operation, response.status, response.headers, text));
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw fail(
        new VendorApiError(
          `The Decipher API sent a response to ${operation} that is not valid JSON (HTTP ${response.status})`,
          { status: response.status, type: "invalid_response", operation },
        ),
      );
    }
    const parsed = v.safeParse(schema, body);
    if (parsed.success) return parsed.output;
    const issue = parsed.issues[0];
    const field = issuePath(issue.path);
    throw fail(
      new VendorApiError(
        scrub(
          `The Decipher API sent an unexpected response to ${operation}: ${field || "(body)"}: ${issue.message}`,
        ),
        { status: response.status, type: "invalid_response", field: field || null, operation },
      ),
    );
  }

  /** No HTTP answer: the attempt's timeout, or the network (DNS, refused, reset). */
  function requestFailure(operation: string, error: unknown): VendorApiError {
    if (error instanceof AttemptTimeout) {
      return new VendorApiError(`The Decipher API did not answer within ${timeoutMs} ms`, {
        status: null,
        type: "timeout_error",
        operation,
      });
    }
    return new VendorApiError(`Could not reach the Decipher API (${scrub(describe(error))})`, {
      status: null,
      type: "network_error",
      operation,
    });
  }

  function errorFromResponse(
    operation: string,
    status: number,
    headers: Headers,
    text: string,
  ): VendorApiError {
    let error: v.InferOutput<typeof errorBodySchema>["error"] | null = null;
    try {
      const parsed = v.safeParse(errorBodySchema, JSON.parse(text));
      if (parsed.success) error = parsed.output.error;
    } catch {
      // A proxy's HTML error page or an empty body: fall back to what the status says.
    }
    const type = error?.type ?? TYPE_BY_STATUS[status] ?? "api_error";
    const detail = error?.message?.trim() || DEFAULT_MESSAGE[type] || `HTTP ${status}`;
    const fieldNote = error?.field ? ` (field: ${error.field})` : "";
    return new VendorApiError(scrub(`Decipher API error ${status} ${type}: ${detail}${fieldNote}`), {
      status,
      type,
      code: error?.code ? scrub(error.code) : null,
      field: error?.field ? scrub(error.field) : null,
      retryAfterMs: parseRetryAfter(headers.get("retry-after"), now()),
      operation,
    });
  }

  return {
    async listTestRuns(testId, query) {
      const op = "listTestRuns";
      const id = numericId(testId, "testId", op);
      const params = buildQuery(query, { limitMax: 100, status: true }, op);
      const page = await get(op, `/api/v1/tests/${id}/runs`, params, testRunPageSchema);
      const data: TestRun[] = [];
      const rejected: RejectedRun[] = [];
      page.data.forEach((item, index) => {
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
          message: scrub(issue.message),
        });
      });
      return { ...page, data, rejected };
    },
    async listCollectionSessions(collectionId, query) {
      const op = "listCollectionSessions";
      const id = numericId(collectionId, "collectionId", op);
      const params = buildQuery(query, { limitMax: 50, include: true }, op);
      return get(
        op,
        `/api/v1/monitoring/issue-collections/${id}/sessions`,
        params,
        collectionSessionListSchema,
      );
    },
    async listSessions(query) {
      const op = "listSessions";
      const params = buildQuery(query, { limitMax: 100, text: ["userEmail", "userId", "url"] }, op);
      return get(op, "/api/v1/sessions", params, sessionListSchema);
    },
    async getSessionTimeline(sessionId) {
      const op = "getSessionTimeline";
      const id = uuid(sessionId, "sessionId", op);
      return get(op, `/api/v1/sessions/${id}/timeline`, new URLSearchParams(), sessionTimelineSchema);
    },
    async getSessionClicks(sessionId) {
      const op = "getSessionClicks";
      const id = uuid(sessionId, "sessionId", op);
      return get(op, `/api/v1/sessions/${id}/clicks`, new URLSearchParams(), sessionClicksSchema);
    },
  };
}

/** `data[3].status` from a valibot issue path. */
function issuePath(path: readonly { key: unknown }[] | undefined): string {
  let out = "";
  for (const { key } of path ?? []) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** The root cause's own words, without the wrappers around it. */
function describe(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof Error) return `${current.name}: ${current.message}`;
  return String(current);
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
