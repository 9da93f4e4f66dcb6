import type { SessionClicks, SessionTimeline } from "../../decipher/types.ts";
import type { VendorClient } from "../../decipher/vendor-client.ts";
import { isVendorApiError } from "../../decipher/vendor-errors.ts";
import { toSharedSessionCard } from "../../messages/button-values.ts";
import type { SessionLookup } from "../../messages/session-unfurl.ts";

const OVERVIEW_KEEP = 1200;
/** The listing is searched around the timeline's first activity, which is when the session began. */
const WINDOW_MS = 10 * 60 * 1000;

const settled = async <T>(
  work: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> => {
  try {
    return { ok: true, value: await work };
  } catch (error) {
    return { ok: false, error };
  }
};

/**
 * At most three vendor calls: clicks and timeline together, then one page of the session
 * listing (the API has no single-session read) narrowed to the minutes around the session's
 * start. Null — Slack's own preview — when the session is unknown or Decipher is failing.
 */
export async function lookupSession(vendor: VendorClient, sessionId: string): Promise<SessionLookup | null> {
  const [clicks, timeline] = await Promise.all([
    settled(vendor.getSessionClicks(sessionId)),
    settled(vendor.getSessionTimeline(sessionId)),
  ]);
  // The clicks endpoint answers for every session the organization has: its 404 means "no such session".
  if (!clicks.ok && (!isVendorApiError(clicks.error) || clicks.error.isNotFound() || !timeline.ok))
    return null;
  const tl: SessionTimeline | null = timeline.ok ? timeline.value : null;
  const start = tl?.pages.flatMap((p) => p.activities)[0]?.startTime;
  const startMs = start ? Date.parse(start) : Number.NaN;
  const listing = await settled(
    vendor.listSessions(
      Number.isFinite(startMs)
        ? {
            since: new Date(startMs - WINDOW_MS),
            until: new Date(startMs + WINDOW_MS),
            limit: 100,
          }
        : { limit: 100 },
    ),
  );
  const summary = listing.ok ? listing.value.data.find((s) => s.id === sessionId) : undefined;
  return {
    session: summary ? toSharedSessionCard(summary) : null,
    overview: tl ? tl.overview.slice(0, OVERVIEW_KEEP) : null,
    tags: tl ? tl.tags.slice(0, 12).map((t) => t.tag) : [],
    hasTimeline: tl !== null || summary?.hasTimeline === true,
    screenshot: clicks.ok ? firstScreenshot(clicks.value) : null,
  };
}

/** The first click that has a screenshot: what the user saw as they acted. */
function firstScreenshot(clicks: SessionClicks): SessionLookup["screenshot"] {
  for (const click of clicks.data) {
    const url = click.screenshots?.before ?? click.screenshots?.after;
    if (!url || !/^https?:\/\//i.test(url) || url.length > 3000) continue;
    const what = click.clickText ? `“${click.clickText.slice(0, 80)}”` : (click.clickTag ?? "the page");
    return {
      url,
      alt: `First ${click.type.replace(/_/g, " ")} on ${what}`,
      expiresAt: clicks.screenshotsExpiresAt,
    };
  }
  return null;
}
