import { POST_EVENT_TYPE } from "./post-message.ts";
import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure, type SlackFailure } from "./slack-errors.ts";

/**
 * How the workspace lets the app read history (docs/slack-platform.md names Slack's pages): an
 * internal or Marketplace app at Tier 3 with up to 999 messages a page; an app distributed
 * outside the Marketplace once a minute per method, 15 a page.
 */
export type HistoryTier = {
  /** The `limit` asked for: never above what the tier allows. */
  pageLimit: number;
  /** Pages one lookup reads before it carries its cursor to a later poll. */
  pagesPerLookup: number;
  /** The least time between two reads of the same lookup. */
  spacingMs: number;
};

export const HISTORY_TIERS = {
  internal: { pageLimit: 200, pagesPerLookup: 2, spacingMs: 0 },
  // A second over the minute: two polls a minute apart may call a little less than a minute apart.
  distributed: { pageLimit: 15, pagesPerLookup: 1, spacingMs: 61_000 },
} as const satisfies Record<string, HistoryTier>;

/** The two methods Slack paces apart, each once a minute per workspace in the distributed tier. */
export type HistoryMethod = "conversations.history" | "conversations.replies";

/**
 * The workspace's turn to read history with `method`: 0 to read now, else how long to wait.
 * One per workspace (src/objects/history-pace.ts): Slack counts the minute across all of the
 * workspace's objects, not per object.
 */
export type HistoryPace = (method: HistoryMethod) => Promise<number>;

/**
 * How long a read waits when the workspace last read with the same method at `lastAt`. Never
 * longer than the spacing: callers count on their cycle's clock, which may lag a little behind
 * the one that read last, and such a caller must not wait past its next minute for that.
 */
export const turnWait = (lastAt: number | undefined, now: number, spacingMs: number): number =>
  lastAt === undefined ? 0 : Math.min(spacingMs, Math.max(0, lastAt + spacingMs - now));

/** Where a lookup reads: a window of history (Slack seconds) and, when one is under way, its cursor. */
export type LookupWindow = { oldest: string; latest: string; cursor?: string | null };

export type Lookup =
  /** Found: its ts, and whether it went out as text alone (src/slack-api/post-message.ts). */
  | { found: true; ts: string; textOnly: boolean }
  /** The whole window was read: Slack does not hold it. */
  | { found: false }
  /** Not on the pages read so far: the lookup goes on from `cursor` later. */
  | { cursor: string }
  | { failed: SlackFailure };

/** Slack's ts and our clock may differ a little: look from slightly before the intent. */
export const CLOCK_MARGIN_S = 120;
/**
 * Slack stores a post within moments of the request, never this long after it: the lookup
 * reads only this window, so a channel busy since then cannot push the post past the pages read.
 */
const STORED_WITHIN_S = 15 * 60;

type Message = {
  ts?: string;
  metadata?: {
    event_type?: string;
    event_payload?: { key?: unknown; text_only?: unknown; owner?: unknown };
  };
};

/**
 * The post looked for: its key, and the object of the channel that holds it (the `owner` of
 * its metadata, src/model/post-owner.ts). A key is one object's: two subscriptions of a
 * channel may send the same one (a notice keyed by the cron's time), so a post naming another
 * owner is not this one. A post naming none is from before owners were written.
 */
export type PostKey = { key: string; owner?: string | undefined };

const isPost = (m: Message, wanted: PostKey, exceptTs?: string | null): boolean => {
  const payload = m.metadata?.event_payload;
  return (
    m.ts !== exceptTs &&
    m.metadata?.event_type === POST_EVENT_TYPE &&
    payload?.key === wanted.key &&
    (payload.owner === undefined || wanted.owner === undefined || payload.owner === wanted.owner)
  );
};

/**
 * The window of history where a post intended at `since` (or at any time up to `until`, for
 * the posts of several intents) can be, `now` by Slack's clock.
 */
export function windowOf(since: Date, now: Date, until: Date = since): LookupWindow {
  // Never later than now: an intent stamped ahead of Slack's clock must not hide its post.
  const from = Math.min(since.getTime(), now.getTime());
  const to = Math.max(since.getTime(), until.getTime());
  return {
    oldest: String(Math.max(0, Math.floor(from / 1000) - CLOCK_MARGIN_S)),
    latest: String(Math.floor(to / 1000) + CLOCK_MARGIN_S + STORED_WITHIN_S),
  };
}

/**
 * Whether Slack holds the bot's post with this idempotency key (and owner) in `window`: in the channel's
 * history, or in the replies of `threadTs`. A copy at `exceptTs` does not count (the one the
 * ledger points at, when the lookup is for a second copy). One call a page, at most the tier's
 * pages; the caller paces lookups and keeps the cursor between them.
 */
export async function findPosted(
  slack: SlackClient,
  channel: string,
  wanted: PostKey,
  window: LookupWindow,
  tier: HistoryTier,
  threadTs?: string | null,
  exceptTs?: string | null,
): Promise<Lookup> {
  let cursor = window.cursor ?? undefined;
  try {
    for (let page = 0; page < tier.pagesPerLookup; page++) {
      const args = {
        channel,
        oldest: window.oldest,
        latest: window.latest,
        limit: tier.pageLimit,
        include_all_metadata: true,
        ...(cursor ? { cursor } : {}),
      };
      const res = threadTs
        ? await slack.conversations.replies({ ...args, ts: threadTs })
        : await slack.conversations.history(args);
      const messages = (res.messages ?? []) as Message[];
      const hit = messages.find((m) => isPost(m, wanted, exceptTs));
      if (hit?.ts)
        return { found: true, ts: hit.ts, textOnly: hit.metadata?.event_payload?.text_only === true };
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!res.has_more || !cursor) return { found: false };
    }
    return { cursor: cursor as string };
  } catch (error) {
    return { failed: classifySlackFailure(error) };
  }
}
