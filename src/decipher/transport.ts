import { type FetchResponse, ofetch } from "ofetch";
import * as v from "valibot";
import { nextDelay, parseRetryAfter, type RetryPolicy } from "./retry.ts";
import { errorBodySchema } from "./schema.ts";
import { isVendorApiError, VendorApiError, type VendorErrorType } from "./vendor-errors.ts";

/**
 * How the Decipher client talks HTTP (src/decipher/vendor-client.ts): one `ofetch` instance
 * per client, our attempt as its transport, our waits in its error hooks, and every failure a
 * `VendorApiError` with the key scrubbed out.
 */

/** A client's settings, checked by `createVendorClient`. */
export type Settings = {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  fetch: typeof fetch | undefined;
};

/** The settings with their ofetch instance. */
export type Transport = Settings & { api: ReturnType<typeof ofetch.create> };

export const transportOf = (settings: Settings): Transport => ({ ...settings, api: apiOf(settings) });

/**
 * Answers worth another attempt: 429 and every 5xx (a request with no HTTP answer is one
 * too: ofetch counts it as a 500); `nextDelay` has the last word.
 */
const RETRY_STATUS_CODES = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

/** Thrown by an attempt whose own timer fired, to tell it from a network failure. */
class AttemptTimeout extends Error {
  override readonly name = "TimeoutError";
}

/**
 * The most of one answer the bot reads: a page of 100 runs or 50 sessions with their
 * timelines is well under a megabyte, and an answer read whole into memory must not be able
 * to take the isolate (128 MB) down.
 */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** Thrown by an attempt whose answer passed MAX_BODY_BYTES: final, not retried. */
class BodyTooLarge extends Error {
  override readonly name = "BodyTooLarge";
}

/** The answer's text, read no further than MAX_BODY_BYTES. */
async function boundedText(res: Response): Promise<string> {
  if (Number(res.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new BodyTooLarge();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let read = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    read += value.byteLength;
    if (read > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
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

/**
 * One HTTP attempt with its own timeout over headers and body; the answer comes back fully
 * read, so a body that stalls is a timeout of this attempt (and retried like one). ofetch's
 * own `timeout` stops at the headers and hands a retry the signal it aborted, so the attempt
 * is ofetch's transport instead. `send` is called as a plain function: `fetch` called on a
 * receiver (`options.fetch(…)`) is rejected by workerd with "Illegal invocation".
 */
function attemptOf(t: Settings) {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), t.timeoutMs);
    try {
      const send = t.fetch ?? globalThis.fetch;
      const res = await send(input, {
        method: init?.method ?? "GET",
        headers: init?.headers,
        signal: controller.signal,
      });
      const text = await boundedText(res);
      return new Response(text === "" ? null : text, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (error) {
      if (error instanceof BodyTooLarge) throw error;
      throw controller.signal.aborted ? new AttemptTimeout() : error;
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * The API on ofetch: its attempts (`attempt`), retried on 429 and 5xx and on no answer at
 * all, up to the policy's attempts. The waits are ours (`settle`, in the error hooks): full
 * jitter, and `Retry-After` honoured, which ofetch does not read. Answers are read as text so
 * bad JSON is our error, not a string ofetch passes on.
 */
const apiOf = (t: Settings) =>
  ofetch.create(
    {
      baseURL: t.baseUrl,
      headers: { Authorization: `Bearer ${t.apiKey}`, Accept: "application/json" },
      responseType: "text",
      retry: t.policy.attempts - 1,
      retryDelay: 0,
      retryStatusCodes: RETRY_STATUS_CODES,
    },
    { fetch: attemptOf(t) },
  );

/** Keeps the key out of anything the vendor might echo back. */
export const scrub = (t: Settings, text: string): string =>
  text.split(t.apiKey).join("[redacted]").slice(0, MAX_MESSAGE);

export async function get<S extends v.GenericSchema>(
  t: Transport,
  operation: string,
  path: string,
  params: URLSearchParams,
  schema: S,
): Promise<v.InferOutput<S>> {
  const qs = params.toString();
  let attempts = 0;
  const fail = (error: VendorApiError): VendorApiError => {
    error.attempts = attempts;
    return error;
  };
  /** After a failed attempt: throw the error to give up, or wait before ofetch's next one. */
  const settle = async (error: VendorApiError): Promise<void> => {
    const delay = nextDelay(fail(error), attempts, t.policy, t.random);
    if (delay === null) throw error;
    await t.sleep(delay);
  };
  let response: FetchResponse<string>;
  try {
    response = await t.api.raw<string, "text">(`${path}${qs ? `?${qs}` : ""}`, {
      onRequest: () => {
        attempts++;
      },
      onRequestError: async ({ error }) => {
        // An abort the attempt's own timer did not cause is nobody's to retry.
        // (`error` is what fetch rejected with, not always an Error.)
        if (
          (error as unknown) instanceof Error &&
          (error.name === "AbortError" || error instanceof BodyTooLarge)
        )
          throw fail(requestFailure(t, operation, error));
        await settle(requestFailure(t, operation, error));
      },
      onResponseError: async ({ response: failed }) => {
        const error = errorFromResponse(t, operation, failed.status, failed.headers, failed._data ?? "");
        // Any other 4xx is final at once.
        if (!RETRY_STATUS_CODES.includes(failed.status)) throw fail(error);
        await settle(error);
      },
    });
  } catch (error) {
    if (isVendorApiError(error)) throw error;
    throw fail(requestFailure(t, operation, error));
  }
  // ofetch calls only a 4xx or 5xx an error: any other answer that is not 2xx (a 3xx fetch did
  // not follow) is one too, from its status, never its body read as data.
  if (response.status < 200 || response.status > 299)
    throw fail(errorFromResponse(t, operation, response.status, response.headers, response._data ?? ""));
  return parseBody(t, operation, response.status, response._data ?? "", schema, fail);
}

/** The answer's JSON, validated at the boundary: a drifted field is named, never passed on. */
function parseBody<S extends v.GenericSchema>(
  t: Settings,
  operation: string,
  status: number,
  text: string,
  schema: S,
  fail: (error: VendorApiError) => VendorApiError,
): v.InferOutput<S> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail(
      new VendorApiError(
        `The Decipher API sent a response to ${operation} that is not valid JSON (HTTP ${status})`,
        { status, type: "invalid_response", operation },
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
        t,
        `The Decipher API sent an unexpected response to ${operation}: ${field || "(body)"}: ${issue.message}`,
      ),
      { status, type: "invalid_response", field: field || null, operation },
    ),
  );
}

/** No HTTP answer: the attempt's timeout, or the network (DNS, refused, reset). */
function requestFailure(t: Settings, operation: string, error: unknown): VendorApiError {
  if (error instanceof BodyTooLarge)
    return new VendorApiError(
      `The Decipher API sent an answer to ${operation} larger than ${MAX_BODY_BYTES / 1024 / 1024} MB, which the bot does not read`,
      { status: null, type: "invalid_response", operation },
    );
  if (error instanceof AttemptTimeout) {
    return new VendorApiError(`The Decipher API did not answer within ${t.timeoutMs} ms`, {
      status: null,
      type: "timeout_error",
      operation,
    });
  }
  return new VendorApiError(`Could not reach the Decipher API (${scrub(t, describe(error))})`, {
    status: null,
    type: "network_error",
    operation,
  });
}

function errorFromResponse(
  t: Settings,
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
  return new VendorApiError(scrub(t, `Decipher API error ${status} ${type}: ${detail}${fieldNote}`), {
    status,
    type,
    code: error?.code ? scrub(t, error.code) : null,
    field: error?.field ? scrub(t, error.field) : null,
    retryAfterMs: parseRetryAfter(headers.get("retry-after"), t.now()),
    operation,
  });
}

/** `data[3].status` from a valibot issue path. */
export function issuePath(path: readonly { key: unknown }[] | undefined): string {
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
