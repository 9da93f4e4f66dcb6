import { context } from "../messages/elements.ts";
import type { SlackMessage } from "../messages/limits.ts";
import {
  hasRichBlocks,
  isRichBlock,
  leftOutNote,
  showingRich,
  withoutRichBlocks,
} from "../messages/rich-blocks.ts";
import { blocksPerMessage } from "../messages/slack-limits.ts";
import { type RefusedBlocks, refusedBlocks } from "./refused-blocks.ts";
import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure, classifyWriteFailure, type SlackFailure } from "./slack-errors.ts";

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
export function postMetadata(key: string, textOnly = false, owner?: string) {
  const payload: Record<string, string | boolean> = { key };
  if (textOnly) payload.text_only = true;
  // Which object of the channel holds the key: Slack's message_metadata_posted is routed by it.
  if (owner) payload.owner = owner;
  return { event_type: POST_EVENT_TYPE, event_payload: payload };
}

/**
 * Which chart and table types a workspace takes (Slack rolls new blocks out in phases). Asked
 * before a message with one is sent; told when Slack refused a type, so later messages skip
 * that type, and only that one.
 */
export type RichBlockGate = {
  refusedTypes(): Promise<ReadonlySet<string>>;
  remember(types: readonly string[]): Promise<void>;
};

type Send = (message: SlackMessage, withBlocks: boolean) => Promise<PostResult>;

const NONE: ReadonlySet<string> = new Set();

/** The message with the refused blocks left out: a type by its alternative, a content refusal said so. */
function leavingOut(
  message: SlackMessage,
  refused: RefusedBlocks,
  skipped: ReadonlySet<string>,
): SlackMessage {
  const out = (b: { type: string; block_id?: string | undefined }) =>
    skipped.has(b.type) || refused.types.has(b.type) || (!!b.block_id && refused.content.has(b.block_id));
  const shown = showingRich(message, (b) => !out(b));
  const contentOut = message.blocks.filter(
    (b) => isRichBlock(b) && !!b.block_id && refused.content.has(b.block_id) && !refused.types.has(b.type),
  );
  if (contentOut.length === 0) return shown;
  const note = leftOutNote(contentOut.map((b) => b.type));
  const blocks =
    shown.blocks.length < blocksPerMessage ? [...shown.blocks, context(`_${note}_`)] : shown.blocks;
  return { text: `${shown.text} ${note}`, blocks };
}

/**
 * Sends a message with the fallbacks Slack's refusals call for. Charts and tables of a type
 * the workspace takes go out as they are, the others by their text alternatives. When Slack
 * refuses some of them, the same message goes out again without those: a type refused is
 * remembered for the workspace (that type only), a chart or table refused for its content is
 * left out of this message alone, which says so. When the refusal names no chart or table, or
 * Slack refuses again, every one is left out; when Slack refuses even that, the text fallback
 * goes out alone: a plainer message beats one that blocks every later alert of its subscription.
 */
async function sendWithFallbacks(
  message: SlackMessage,
  send: Send,
  gate: RichBlockGate | undefined,
  textAlone: boolean,
): Promise<PostResult> {
  const rich = hasRichBlocks(message);
  const plain = rich ? withoutRichBlocks(message) : message;
  const skipped = rich && gate ? await gate.refusedTypes().catch(() => NONE) : NONE;
  const outgoing = rich ? showingRich(message, (b) => !skipped.has(b.type)) : plain;
  const first = await send(outgoing, true);
  if (first.ok || first.failure.kind !== "rejected") return first;
  if (hasRichBlocks(outgoing)) {
    const refused = refusedBlocks(outgoing.blocks, first.failure.detail);
    console.warn(`Slack refused a chart or table (${first.failure.code}); sending the message without it`);
    const retry = refused ? leavingOut(message, refused, skipped) : plain;
    const second = await send(retry, true);
    if (second.ok && refused && refused.types.size > 0)
      await gate?.remember([...refused.types]).catch(() => {});
    if (second.ok || second.failure.kind !== "rejected") return second;
    if (hasRichBlocks(retry)) {
      const third = await send(plain, true);
      if (third.ok || third.failure.kind !== "rejected") return third;
    }
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
  /** Which object of the channel holds the key (src/model/post-owner.ts). */
  owner?: string,
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
          ...(key ? { metadata: postMetadata(key, !withBlocks, owner) } : {}),
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
