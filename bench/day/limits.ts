/**
 * Cloudflare's Workers Free daily limits and Workers Paid prices that `npm run bench:day` holds a
 * day's counts against, as published on Cloudflare's pages (docs/cloudflare-limits.md names them
 * and says when they were read). A month is 30 days.
 */

export const PAGES = {
  doPricing: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
  doLimits: "https://developers.cloudflare.com/durable-objects/platform/limits/",
  kvLimits: "https://developers.cloudflare.com/kv/platform/limits/",
  kvPricing: "https://developers.cloudflare.com/kv/platform/pricing/",
  workersLimits: "https://developers.cloudflare.com/workers/platform/limits/",
  workersPricing: "https://developers.cloudflare.com/workers/platform/pricing/",
} as const;

/** What a day's counts are named by, in the tables. */
export type Meter =
  | "workerRequests"
  | "doRequests"
  | "rowsWritten"
  | "rowsRead"
  | "kvReads"
  | "kvWrites"
  | "kvDeletes"
  | "kvLists";

export type MeterSpec = {
  label: string;
  /** Workers Free, per day (UTC): past it, every further operation of the kind fails until 00:00 UTC. */
  freePerDay: number;
  /** Workers Paid: included per month, and US dollars per million beyond. */
  paidIncludedPerMonth: number;
  paidPerMillion: number;
  page: string;
};

export const METERS: Record<Meter, MeterSpec> = {
  workerRequests: {
    label: "Worker requests (the cron)",
    freePerDay: 100_000,
    paidIncludedPerMonth: 10_000_000,
    paidPerMillion: 0.3,
    page: PAGES.workersPricing,
  },
  doRequests: {
    label: "Durable Object requests (alarms and RPC calls)",
    freePerDay: 100_000,
    paidIncludedPerMonth: 1_000_000,
    paidPerMillion: 0.15,
    page: PAGES.doPricing,
  },
  rowsWritten: {
    label: "Durable Object rows written (setAlarm included)",
    freePerDay: 100_000,
    paidIncludedPerMonth: 50_000_000,
    paidPerMillion: 1.0,
    page: PAGES.doPricing,
  },
  rowsRead: {
    label: "Durable Object rows read",
    freePerDay: 5_000_000,
    paidIncludedPerMonth: 25_000_000_000,
    paidPerMillion: 0.001,
    page: PAGES.doPricing,
  },
  kvReads: {
    label: "Workers KV reads",
    freePerDay: 100_000,
    paidIncludedPerMonth: 10_000_000,
    paidPerMillion: 0.5,
    page: PAGES.kvPricing,
  },
  kvWrites: {
    label: "Workers KV writes",
    freePerDay: 1_000,
    paidIncludedPerMonth: 1_000_000,
    paidPerMillion: 5.0,
    page: PAGES.kvPricing,
  },
  kvDeletes: {
    label: "Workers KV deletes",
    freePerDay: 1_000,
    paidIncludedPerMonth: 1_000_000,
    paidPerMillion: 5.0,
    page: PAGES.kvPricing,
  },
  kvLists: {
    label: "Workers KV lists",
    freePerDay: 1_000,
    paidIncludedPerMonth: 1_000_000,
    paidPerMillion: 5.0,
    page: PAGES.kvPricing,
  },
};

/** Per invocation, on Workers Free (Workers limits; KV limits for operations on Cloudflare's services). */
export const PER_INVOCATION = { external: 50, internal: 1_000, cpuMs: 10 } as const;

/** Workers Paid's monthly minimum, in US dollars. */
export const PAID_BASE_PER_MONTH = 5;
/** Durable Object duration: Free per day, Paid included per month and per million GB-s; 128 MB each. */
export const DURATION = {
  freeGbSecondsPerDay: 13_000,
  paidIncluded: 400_000,
  paidPerMillion: 12.5,
  gb: 0.128,
} as const;
export const DAYS_PER_MONTH = 30;

/** US dollars a month beyond the base for a day's count of one meter. */
export function paidPerMonth(meter: Meter, perDay: number): number {
  const m = METERS[meter];
  return (Math.max(0, perDay * DAYS_PER_MONTH - m.paidIncludedPerMonth) / 1_000_000) * m.paidPerMillion;
}
