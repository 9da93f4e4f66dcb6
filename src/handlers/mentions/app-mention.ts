import type { AppMentionEvent } from "slack-edge";
import { errorMessage, usageMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { mentionHelpMessage } from "../../messages/mention-help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { CommandInputError } from "../commands/parse-error.ts";
import { renderSessionsPage } from "../commands/sessions-command.ts";
import { parseSessionSearch } from "../commands/sessions-query.ts";

/** The words after the mention(s): `<@U0DECIPHER> sessions jane@acme.com` → `sessions jane@acme.com`. */
export function mentionCommand(text: string): { verb: string; rest: string } {
  const words = text
    .replace(/<@[UW][A-Z0-9]+(?:\|[^>]*)?>/g, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return { verb: (words[0] ?? "").toLowerCase(), rest: words.slice(1).join(" ") };
}

async function answerFor(text: string, deps: Deps): Promise<SlackMessage> {
  const { verb, rest } = mentionCommand(text);
  if (verb === "sessions" || verb === "session") {
    try {
      const query = parseSessionSearch(rest, deps.now());
      return await renderSessionsPage(deps, query);
    } catch (error) {
      if (error instanceof CommandInputError) return usageMessage(error.message);
      return errorMessage(vendorErrorSentence(error));
    }
  }
  if (verb === "help" || verb === "") return mentionHelpMessage();
  return mentionHelpMessage(verb);
}

/**
 * `@Decipher sessions …` and `@Decipher help`, answered in the thread of the mention (a
 * mention at the top level starts one), with the same parser and cards as `/sessions`.
 */
export async function handleAppMention(event: AppMentionEvent, deps: Deps): Promise<void> {
  const message = await answerFor(event.text ?? "", deps);
  try {
    await deps.slack.chat.postMessage({
      channel: event.channel,
      thread_ts: event.thread_ts ?? event.ts,
      text: message.text,
      blocks: message.blocks,
    });
  } catch (error) {
    console.warn(`mention answer failed (${classifySlackFailure(error).code})`);
  }
}
