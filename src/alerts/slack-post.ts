import type { SlackAPIClient } from "slack-edge";
import { classifySlackFailure, type SlackFailure } from "../slack/errors.ts";
import type { SlackMessage } from "../slack/limits.ts";

export type PostResult = { ok: true; ts: string } | { ok: false; failure: SlackFailure };

/** Posts (or replies in a thread) and reports how it went instead of throwing. */
export async function post(
  slack: SlackAPIClient,
  channel: string,
  message: SlackMessage,
  threadTs?: string,
): Promise<PostResult> {
  try {
    const res = await slack.chat.postMessage({
      channel,
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
      unfurl_media: false,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    return { ok: true, ts: String(res.ts) };
  } catch (error) {
    return { ok: false, failure: classifySlackFailure(error) };
  }
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
