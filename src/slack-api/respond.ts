import type { Respond } from "slack-edge";
import type { SlackMessage } from "../messages/limits.ts";
import { describeError } from "../util/describe-error.ts";

export type ResponseOptions = {
  /** `ephemeral` (default) shows only to the person who asked. */
  responseType?: "ephemeral" | "in_channel";
  /**
   * Replace the message the request came from: the clicked message, or for a slash command
   * the "working on it" ack, so no progress message is left behind its answer.
   */
  replaceOriginal?: boolean;
};

/**
 * Answers through slack-edge's `context.respond` (the request's `response_url`, 5 uses within
 * 30 min). Returns whether Slack took it. Failures are logged by error name only: the URL is
 * a bearer credential for the conversation and Slack's answer may quote it.
 */
export async function reply(
  respond: Respond | undefined,
  message: SlackMessage,
  options: ResponseOptions = {},
): Promise<boolean> {
  if (!respond) return false;
  try {
    await respond({
      response_type: options.responseType ?? "ephemeral",
      replace_original: options.replaceOriginal ?? false,
      text: message.text,
      blocks: message.blocks,
    });
    return true;
  } catch (error) {
    console.warn(`response_url post failed: ${describeError(error)}`);
    return false;
  }
}
