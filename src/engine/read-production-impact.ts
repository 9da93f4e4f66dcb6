import type { Config } from "../config.ts";
import type { SessionSummary } from "../decipher/types.ts";
import { createVendorClient, type VendorClient } from "../decipher/vendor-client.ts";
import { isVendorApiError } from "../decipher/vendor-errors.ts";
import type { ImpactCollection, ImpactResult } from "../model/production-impact.ts";
import type { CollectionSubscription } from "../model/subscription.ts";
import { budgetedFetch, type SubrequestBudget } from "../util/subrequest-budget.ts";

/**
 * What a failing test means in production: how many real sessions visited the page it
 * covers in the last 24 h, one of them to watch, and which of the channel's watched issue
 * collections sit on that page. A garnish on an alert, so it is cheap and never in the way:
 * at most two vendor requests (the session list, then one timeline if the budget allows),
 * no retries, and any failure is a result (`unavailable`), never a throw.
 */

export const IMPACT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** One page of the session list; more than this is shown as "100+". */
export const IMPACT_SESSION_LIMIT = 100;
/** Collections named at most; the busiest first. */
export const IMPACT_MAX_COLLECTIONS = 5;

/** The two endpoints the lookup may call. */
export type ImpactVendor = Pick<VendorClient, "listSessions" | "getSessionTimeline">;

export type ImpactInput = {
  /** The page the test covers (`TestOptions.page`), a path such as `/checkout`. */
  page: string;
  /** The channel's collection subscriptions; those whose `path` overlaps the page are named. */
  collections: readonly CollectionSubscription[];
  now: Date;
  /**
   * The invocation's budget. Only looked at: the vendor client draws from it itself (as
   * `impactVendorClient` and `deps.vendor` do), so taking here would count twice.
   */
  budget: SubrequestBudget;
  /** Subrequests to leave untouched, for the alert this impact belongs to. Default 0. */
  keep?: number;
  /** Fresher collection figures than the stored `alertedCount`, by collection id. */
  counts?: ReadonlyMap<number, { sessionCount: number; addedToday: number | null }>;
};

/**
 * A vendor client for the lookup: one attempt per request (a retry would be a third
 * request, and the alert must not wait for a garnish), drawing from the invocation's budget.
 */
export function impactVendorClient(config: Config, budget: SubrequestBudget): ImpactVendor {
  return createVendorClient({
    baseUrl: config.decipherApiUrl,
    apiKey: config.decipherApiKey,
    timeoutMs: config.vendorTimeoutMs,
    fetch: budgetedFetch(budget),
    retry: { attempts: 1 },
  });
}

/** Path part only, without a trailing slash ("/checkout/" and "/checkout?x" are "/checkout"). */
function pathOnly(raw: string): string {
  const path = raw.split(/[?#]/)[0] ?? "";
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

/**
 * Whether one path is the other or lies under it, by whole segments: `/checkout` and
 * `/checkout/payment` overlap, `/checkout` and `/checkouts` do not, and `/` only matches `/`
 * (every collection would otherwise be "on" the home page).
 */
export function pathsOverlap(a: string, b: string): boolean {
  const x = pathOnly(a);
  const y = pathOnly(b);
  if (!x || !y) return false;
  return x === y || x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
}

/** The channel's collections on the page, busiest first. Resolved ones (not regressed) are over. */
export function collectionsOnPage(
  page: string,
  collections: readonly CollectionSubscription[],
  counts?: ImpactInput["counts"],
): ImpactCollection[] {
  return collections
    .filter((c) => c.path !== undefined && pathsOverlap(page, c.path) && (!c.wasResolved || c.regressed))
    .map((c) => {
      const fresh = counts?.get(c.collectionId);
      return {
        id: c.collectionId,
        rootCause: c.rootCause,
        path: c.path as string,
        sessions: fresh?.sessionCount ?? c.alertedCount,
        addedToday: fresh?.addedToday ?? null,
      };
    })
    .sort((a, b) => b.sessions - a.sessions || a.id - b.id)
    .slice(0, IMPACT_MAX_COLLECTIONS);
}

/** The newest session with a timeline, else the newest one (the list order is not relied on). */
function pickExample(sessions: readonly SessionSummary[]): SessionSummary | null {
  const newest = [...sessions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return newest.find((s) => s.hasTimeline) ?? newest[0] ?? null;
}

function reasonOf(error: unknown): string {
  if (!isVendorApiError(error)) return "unexpected error";
  if (error.type === "timeout_error") return "Decipher did not answer in time";
  if (error.type === "network_error") return "Decipher could not be reached";
  if (error.type === "invalid_response") return "Decipher sent data the bot could not read";
  if (error.status !== null) return `Decipher answered ${error.status}`;
  return "Decipher could not answer";
}

export async function productionImpact(vendor: ImpactVendor, input: ImpactInput): Promise<ImpactResult> {
  const { page, now, budget } = input;
  const keep = input.keep ?? 0;
  if (!budget.has(keep + 1))
    return { unavailable: true, page, reason: "no vendor requests left in this cycle" };
  const since = new Date(now.getTime() - IMPACT_WINDOW_MS);
  let list: Awaited<ReturnType<ImpactVendor["listSessions"]>>;
  try {
    list = await vendor.listSessions({ url: page, since, limit: IMPACT_SESSION_LIMIT });
  } catch (error) {
    return { unavailable: true, page, reason: reasonOf(error) };
  }
  const chosen = pickExample(list.data);
  let overview: string | null = null;
  if (chosen?.hasTimeline && budget.has(keep + 1)) {
    try {
      overview = (await vendor.getSessionTimeline(chosen.id)).overview.trim() || null;
    } catch {
      // The count is the news; the example stands without its overview.
    }
  }
  return {
    unavailable: false,
    page,
    since: since.toISOString(),
    sessions: list.data.length,
    more: list.hasMore,
    example: chosen
      ? {
          sessionId: chosen.id,
          createdAt: chosen.createdAt,
          userEmail: chosen.userEmail,
          hasTimeline: chosen.hasTimeline,
          overview,
        }
      : null,
    collections: collectionsOnPage(page, input.collections, input.counts),
  };
}
