import type { SlackAPIClient } from "slack-edge";
import type { SlackMessage } from "../messages/limits.ts";
import { classifySlackFailure, classifyWriteFailure, type SlackFailure } from "./slack-errors.ts";

export type PostResult =
  /**
   * `earlier`: the ts of an earlier send of the same key, in the same place, as decided then.
   * `textOnly`: Slack refused the blocks, so only the text went out (it names less).
   */
  { ok: true; ts: string; earlier?: boolean; textOnly?: boolean } | { ok: false; failure: SlackFailure };

/** The `event_type` of the metadata every bot post carries, with its idempotency key. */
export const POST_EVENT_TYPE = "decipher_alert";

/** Slack message metadata naming the post: how a post whose answer was lost is found again. */
export const postMetadata = (key: string) => ({ event_type: POST_EVENT_TYPE, event_payload: { key } });

/**
 * Posts (or replies in a thread) and reports how it went instead of throwing. When Slack
 * refuses the blocks themselves (`invalid_blocks`, `msg_too_long`, …), the text fallback goes
 * out alone: a plainer alert beats one that blocks every later alert of its subscription.
 */
export async function post(
  slack: SlackAPIClient,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
  /** The post's idempotency key, sent as message metadata (src/engine/outbox.ts). */
  key?: string,
): Promise<PostResult> {
  const send = async (withBlocks: boolean): Promise<PostResult> => {
    try {
      const res = await slack.chat.postMessage({
        channel,
        text: message.text,
        ...(withBlocks ? { blocks: message.blocks } : {}),
        unfurl_links: false,
        unfurl_media: false,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        ...(key ? { metadata: postMetadata(key) } : {}),
      });
      return { ok: true, ts: String(res.ts) };
    } catch (error) {
      return { ok: false, failure: classifyWriteFailure(error) };
    }
  };
  const first = await send(true);
  if (first.ok || first.failure.kind !== "rejected" || message.blocks.length === 0) return first;
  console.warn(`Slack refused an alert's blocks (${first.failure.code}); sending its text alone`);
  const second = await send(false);
  return second.ok ? { ...second, textOnly: true } : second;
}

/** Edits a message the bot posted earlier. */
export async function update(
  slack: SlackAPIClient,
  channel: string,
  ts: string,
  message: SlackMessage,
): Promise<PostResult> {
  try {
    await slack.chat.update({ channel, ts, text: message.text, blocks: message.blocks });
    return { ok: true, ts };
  } catch (error) {
    return { ok: false, failure: classifySlackFailure(error) };
  }
}
