/**
 * Caller input → path segments and query strings, checked before anything is sent so a typo
 * becomes a clear `invalid_request` naming the parameter instead of a vendor 422 (or worse,
 * a request to the wrong path). Parameter names are the vendor's (docs/decipher-api.md).
 */
import { isUuid } from "../util/checks.ts";
import type { CollectionInclude, TestRunStatusFilter } from "./types.ts";
import { invalidRequest } from "./vendor-errors.ts";

/** A time bound: a `Date`, or an ISO 8601 string (`2026-02-16`, `2026-02-16T05:00:00Z`, with offset). */
export type TimeBound = Date | string;

export type TestRunListParams = {
  /** Default on the vendor side: `all`. */
  status?: TestRunStatusFilter;
  /** 1–100; vendor default 20. */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  since?: TimeBound;
  until?: TimeBound;
};

export type CollectionSessionListParams = {
  /** 1–50; vendor default 10. */
  limit?: number;
  cursor?: string;
  /** Vendor default: 24 hours before now. */
  since?: TimeBound;
  /** Vendor default: now. */
  until?: TimeBound;
  /**
   * Optional fields to embed in each session. `screenshots` implies `clicks`: the vendor adds
   * the clicks (with their screenshot URLs) even when only `screenshots` is asked for, so
   * `clicks` is then present on every item.
   */
  include?: CollectionInclude[];
};

export type SessionListParams = {
  userEmail?: string;
  userId?: string;
  /** Matches sessions that visited this URL. */
  url?: string;
  /** 1–100; vendor default 20. */
  limit?: number;
  cursor?: string;
  since?: TimeBound;
  until?: TimeBound;
};

const STATUSES: readonly TestRunStatusFilter[] = ["passed", "failed", "running", "all"];
const INCLUDES: readonly CollectionInclude[] = ["timeline", "clicks", "screenshots"];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
/** Long enough for any real filter value, short enough to keep the URL well under limits. */
const MAX_TEXT = 1000;

/** A numeric vendor id (test, collection), as a path segment. */
export function numericId(value: unknown, field: string, operation: string): string {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d{0,15}$/.test(value.trim())) return value.trim();
  throw invalidRequest(field, "must be a positive integer id (for example 101)", operation);
}

export function uuid(value: unknown, field: string, operation: string): string {
  if (typeof value === "string" && isUuid(value.trim())) return value.trim();
  throw invalidRequest(field, "must be a UUID (for example 3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f80)", operation);
}

type Rules = {
  limitMax?: number;
  text?: readonly string[];
  status?: boolean;
  include?: boolean;
};

/**
 * Turns a query object into search params. Unknown keys are rejected rather than dropped:
 * a misspelt filter (`userMail`) silently widening the search would be the worse failure.
 */
export function buildQuery(query: object | undefined, rules: Rules, operation: string): URLSearchParams {
  const params = new URLSearchParams();
  if (query === undefined || query === null) return params;
  if (typeof query !== "object" || Array.isArray(query)) {
    throw invalidRequest("query", "must be an object of filters", operation);
  }
  const allowed = new Set(["limit", "cursor", "since", "until", ...(rules.text ?? [])]);
  if (rules.status) allowed.add("status");
  if (rules.include) allowed.add("include");
  const q = query as Record<string, unknown>;
  for (const key of Object.keys(q)) {
    if (!allowed.has(key)) {
      throw invalidRequest(
        key,
        `is not a filter of this endpoint (allowed: ${[...allowed].join(", ")})`,
        operation,
      );
    }
  }

  if (rules.status && q.status !== undefined) {
    if (!STATUSES.includes(q.status as TestRunStatusFilter)) {
      throw invalidRequest("status", `must be one of ${STATUSES.join(", ")}`, operation);
    }
    params.set("status", q.status as string);
  }
  for (const key of rules.text ?? []) {
    if (q[key] !== undefined) params.set(key, text(q[key], key, operation));
  }
  if (q.limit !== undefined) params.set("limit", limit(q.limit, rules.limitMax ?? 100, operation));
  if (q.cursor !== undefined) params.set("cursor", text(q.cursor, "cursor", operation));
  const since = q.since === undefined ? undefined : timeBound(q.since, "since", operation);
  const until = q.until === undefined ? undefined : timeBound(q.until, "until", operation);
  if (since && until && since > until) {
    throw invalidRequest("until", "must not be before since", operation);
  }
  if (since) params.set("since", since);
  if (until) params.set("until", until);
  if (rules.include && q.include !== undefined) {
    const include = includeList(q.include, operation);
    if (include.length > 0) params.set("include", include.join(","));
  }
  return params;
}

function limit(value: unknown, max: number, operation: string): string {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= max)
    return String(value);
  throw invalidRequest("limit", `must be a whole number from 1 to ${max}`, operation);
}

function text(value: unknown, field: string, operation: string): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw invalidRequest(field, "must be a non-empty string", operation);
  }
  if (value.length > MAX_TEXT)
    throw invalidRequest(field, `must be at most ${MAX_TEXT} characters`, operation);
  return value;
}

/** Normalised to UTC `toISOString()` so the vendor sees one format whatever the caller wrote. */
function timeBound(value: unknown, field: string, operation: string): string {
  const date =
    value instanceof Date
      ? value
      : typeof value === "string" && ISO_8601.test(value.trim())
        ? new Date(asUtc(value.trim()))
        : null;
  if (date === null || Number.isNaN(date.getTime())) {
    throw invalidRequest(
      field,
      "must be a Date or an ISO 8601 date-time (for example 2026-02-16T05:00:00Z)",
      operation,
    );
  }
  return date.toISOString();
}

/** JS reads a zoneless date-time as local time; the vendor (and ISO 8601 practice for APIs) means UTC. */
function asUtc(text: string): string {
  const iso = text.replace(" ", "T");
  return iso.length > 10 && !/(?:Z|[+-]\d{2}:?\d{2})$/i.test(iso) ? `${iso}Z` : iso;
}

function includeList(value: unknown, operation: string): CollectionInclude[] {
  if (!Array.isArray(value)) {
    throw invalidRequest("include", `must be a list of ${INCLUDES.join(", ")}`, operation);
  }
  const out: CollectionInclude[] = [];
  for (const item of value) {
    if (!INCLUDES.includes(item as CollectionInclude)) {
      throw invalidRequest("include", `must only contain ${INCLUDES.join(", ")}`, operation);
    }
    if (!out.includes(item as CollectionInclude)) out.push(item as CollectionInclude);
  }
  return out;
}
