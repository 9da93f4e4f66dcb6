import type { SlackMessage } from "../messages/limits.ts";
import { forRichClients, hasRichBlocks, withoutRichBlocks } from "../messages/rich-blocks.ts";
import type { SlackClient } from "./slack-client.ts";
import {
  classifySlackFailure,
  classifyWriteFailure,
  refusesBlockType,
  type SlackFailure,
} from "./slack-errors.ts";

export type PostResult =
  /**
   * `earlier`: the ts of an earlier send of the same key, in the same place, as decided then.
   * `textOnly`: Slack refused the blocks, so only the text went out (it names less).
   */
  { ok: true; ts: string; earlier?: boolean; textOnly?: boolean } | { ok: false; failure: SlackFailure };

/** The `event_type` of the metadata every bot post carries, with its idempotency key. */
export const POST_EVENT_TYPE = "decipher_alert";

/**
 * Slack message metadata naming the post: how a post whose answer was lost is found again, and
 * whether it went out as text alone (it then names less than its blocks would have).
 */
export function postMetadata(key: string, textOnly = false) {
  const payload: Record<string, string | boolean> = { key };
  if (textOnly) payload.text_only = true;
  return { event_type: POST_EVENT_TYPE, event_payload: payload };
}

/**
 * Whether a workspace takes charts and tables (Slack rolls new blocks out in phases). Asked
 * before a message with one is sent; told when Slack refused one, so later messages skip them.
 */
export type RichBlockGate = { refused(): Promise<boolean>; remember(): Promise<void> };

type Send = (message: SlackMessage, withBlocks: boolean) => Promise<PostResult>;

/**
 * Sends a message with the fallbacks Slack's refusals call for. With charts or tables, and
 * a workspace that shows them, it goes out with them; when Slack refuses the blocks, the
 * same message goes out again with the text alternatives instead (and the gate remembers);
 * when Slack refuses even those, the text fallback goes out alone: a plainer message beats
 * one that blocks every later alert of its subscription.
 */
async function sendWithFallbacks(
  message: SlackMessage,
  send: Send,
  gate: RichBlockGate | undefined,
  textAlone: boolean,
): Promise<PostResult> {
  const rich = hasRichBlocks(message);
  const plain = rich ? withoutRichBlocks(message) : message;
  const skipRich = rich && gate ? await gate.refused().catch(() => false) : false;
  const first = await send(rich && !skipRich ? forRichClients(message) : plain, true);
  if (first.ok || first.failure.kind !== "rejected") return first;
  if (rich && !skipRich) {
    console.warn(`Slack refused a chart or table (${first.failure.code}); sending the message without them`);
    const second = await send(plain, true);
    // A refusal of one block's content (not its type) concerns this message only.
    if (second.ok && refusesBlockType(first.failure)) await gate?.remember().catch(() => {});
    if (second.ok || second.failure.kind !== "rejected") return second;
  }
  if (!textAlone || plain.blocks.length === 0) return first;
  console.warn(`Slack refused a message's blocks (${first.failure.code}); sending its text alone`);
  const alone = await send(plain, false);
  return alone.ok ? { ...alone, textOnly: true } : alone;
}

/** Posts (or replies in a thread) and reports how it went instead of throwing. */
export async function post(
  slack: SlackClient,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
  /** The post's idempotency key, sent as message metadata (src/engine/outbox.ts). */
  key?: string,
  gate?: RichBlockGate,
): Promise<PostResult> {
  return sendWithFallbacks(
    message,
    async (outgoing, withBlocks) => {
      try {
        const res = await slack.chat.postMessage({
          channel,
          text: outgoing.text,
          ...(withBlocks ? { blocks: outgoing.blocks } : {}),
          unfurl_links: false,
          unfurl_media: false,
          ...(threadTs ? { thread_ts: threadTs } : {}),
          ...(key ? { metadata: postMetadata(key, !withBlocks) } : {}),
        });
        return { ok: true, ts: String(res.ts) };
      } catch (error) {
        return { ok: false, failure: classifyWriteFailure(error) };
      }
    },
    gate,
    true,
  );
}

/** Edits a message the bot posted earlier; charts and tables fall back like a post's. */
export async function update(
  slack: SlackClient,
  channel: string,
  ts: string,
  message: SlackMessage,
  gate?: RichBlockGate,
): Promise<PostResult> {
  const send: Send = async (outgoing) => {
    // A refused edit is not retried as text alone: that would wipe the message's blocks.
    try {
      await slack.chat.update({ channel, ts, text: outgoing.text, blocks: outgoing.blocks });
      return { ok: true, ts };
    } catch (error) {
      return { ok: false, failure: classifySlackFailure(error) };
    }
  };
  return sendWithFallbacks(message, send, gate, false);
}
