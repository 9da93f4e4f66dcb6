import { invalid } from "./errors.ts";

/**
 * Query-parameter checks shared by the list endpoints. Each failure is a 422
 * `validation_error` naming the parameter in `error.field`.
 */
export function parseLimit(raw: string | undefined, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) return fail("limit", `limit must be an integer between 1 and ${max}`);
  const n = Number(raw);
  if (n < 1 || n > max) return fail("limit", `limit must be an integer between 1 and ${max}`);
  return n;
}

export const runStatusFilters = ["passed", "failed", "running", "all"] as const;
export type RunStatusFilter = (typeof runStatusFilters)[number];

export function parseStatus(raw: string | undefined): RunStatusFilter {
  if (raw === undefined) return "all";
  if ((runStatusFilters as readonly string[]).includes(raw)) return raw as RunStatusFilter;
  return fail("status", `status must be one of ${runStatusFilters.join(", ")}`);
}

export const includeValues = ["timeline", "clicks", "screenshots"] as const;
export type Include = (typeof includeValues)[number];

/** Comma list; blanks around items and empty items are ignored; canonical order, no repeats. */
export function parseInclude(raw: string | undefined): Include[] {
  if (raw === undefined) return [];
  const asked = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = asked.find((v) => !(includeValues as readonly string[]).includes(v));
  if (unknown !== undefined)
    return fail("include", `Unknown include value '${unknown}'; allowed: ${includeValues.join(", ")}`);
  return includeValues.filter((v) => asked.includes(v));
}

// Date, or date-time with optional seconds, fraction and zone (UTC when no zone is given).
const isoDate = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export function parseTime(name: "since" | "until", raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!isoDate.test(raw)) return fail(name, `${name} must be an ISO 8601 date-time`);
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(raw) && raw.length > 10;
  const ms = Date.parse(hasZone || raw.length === 10 ? raw : `${raw}Z`);
  if (Number.isNaN(ms)) return fail(name, `${name} must be an ISO 8601 date-time`);
  return ms;
}

export function checkRange(since: number | undefined, until: number | undefined): void {
  if (since !== undefined && until !== undefined && since > until)
    fail("since", "since must not be after until");
}

export function parseNumericId(field: string, raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) return fail(field, `${field} must be a numeric id`);
  return Number(raw);
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseUuid(field: string, raw: string): string {
  if (!uuid.test(raw)) return fail(field, `${field} must be a UUID`);
  return raw.toLowerCase();
}

function fail(field: string, message: string): never {
  throw invalid(field, message);
}
