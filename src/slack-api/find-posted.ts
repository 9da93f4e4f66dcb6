import { POST_EVENT_TYPE } from "./post-message.ts";
import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure, type SlackFailure } from "./slack-errors.ts";

/** Found: its ts, and whether it went out as text alone (src/slack-api/post-message.ts). */
export type Lookup =
  | { found: true; ts: string; textOnly: boolean }
  | { found: false }
  | { failed: SlackFailure };

/** History pages read per lookup: an unknown outcome is minutes old, so it is on the first page. */
const MAX_PAGES = 2;
/** Slack's ts and our clock may differ a little: look from slightly before the intent. */
const CLOCK_MARGIN_S = 120;
/**
 * Slack stores a post within moments of the request, never this long after it: the lookup
 * reads only this window, so a channel busy since then cannot push the post past the pages read.
 */
const STORED_WITHIN_S = 15 * 60;

type Message = {
  ts?: string;
  metadata?: { event_type?: string; event_payload?: { key?: unknown; text_only?: unknown } };
};

/**
 * Whether Slack holds the bot's post with this idempotency key, posted since `since`: in the
 * channel's history, or in the replies of `threadTs`. One call per page, paced by the caller
 * (history reads are rate-limited far below posts).
 */
export async function findPosted(
  slack: SlackClient,
  channel: string,
  key: string,
  since: Date,
  threadTs?: string | null,
): Promise<Lookup> {
  // Never later than this call: an intent stamped ahead of Slack's clock must not hide its post.
  const from = Math.min(since.getTime(), Date.now());
  const oldest = String(Math.max(0, Math.floor(from / 1000) - CLOCK_MARGIN_S));
  const latest = String(Math.floor(since.getTime() / 1000) + CLOCK_MARGIN_S + STORED_WITHIN_S);
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const args = {
        channel,
        oldest,
        latest,
        limit: 200,
        include_all_metadata: true,
        ...(cursor ? { cursor } : {}),
      };
      const res = threadTs
        ? await slack.conversations.replies({ ...args, ts: threadTs })
        : await slack.conversations.history(args);
      const messages = (res.messages ?? []) as Message[];
      const hit = messages.find(
        (m) => m.metadata?.event_type === POST_EVENT_TYPE && m.metadata.event_payload?.key === key,
      );
      if (hit?.ts)
        return { found: true, ts: hit.ts, textOnly: hit.metadata?.event_payload?.text_only === true };
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!res.has_more || !cursor) return { found: false };
    }
    // More than two pages since the intent: not seen is not proof of absence.
    return { failed: { kind: "transient", code: "history_too_long" } };
  } catch (error) {
    return { failed: classifySlackFailure(error) };
  }
}
