import type { AppMentionEvent } from "slack-edge";
import { errorMessage, usageMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { understand } from "../../model/ask/question.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { answerInChannel } from "../commands/ask-answers.ts";
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

/** The team a mention is asked in, and its Slack URL for links to alerts. */
export type MentionTeam = { teamId: string; teamUrl: string | null };

/** `@Decipher sessions jane@acme.com since:7d`: the `/sessions` form; a usage note when it does not read as one. */
async function sessionsForm(rest: string, deps: Deps): Promise<SlackMessage> {
  try {
    return await renderSessionsPage(deps, parseSessionSearch(rest, deps.now()));
  } catch (error) {
    if (error instanceof CommandInputError) return usageMessage(error.message);
    return errorMessage(vendorErrorSentence(error));
  }
}

/**
 * What the bot answers to words said to it, in a mention, a DM or the assistant pane: the
 * `/sessions` form when they read as one, else `question`'s answer to them.
 */
export async function answerWords(
  text: string,
  deps: Deps,
  question: (text: string) => Promise<SlackMessage>,
): Promise<SlackMessage> {
  const { verb, rest } = mentionCommand(text);
  const form = verb === "sessions" || verb === "session";
  if (form && parsesAsForm(rest, deps.now())) return sessionsForm(rest, deps);
  // "sessions of user:42 this week" is a question; "sessions not-an-email" gets the form's usage.
  if (form && understand(text, { tests: [], now: deps.now(), zone: "UTC" }).intent !== "sessions")
    return sessionsForm(rest, deps);
  return question(text);
}

function parsesAsForm(rest: string, now: Date): boolean {
  try {
    parseSessionSearch(rest, now);
    return true;
  } catch {
    return false;
  }
}

/**
 * `@Decipher sessions …` (the `/sessions` form) and questions in plain words ("what failed
 * today?", "why did checkout fail?", src/model/ask/question.ts), answered in the thread of the
 * mention (a mention at the top level starts one).
 */
export async function handleAppMention(
  event: AppMentionEvent,
  deps: Deps,
  team: MentionTeam = { teamId: DEFAULT_TEAM, teamUrl: null },
): Promise<void> {
  const message = await answerWords(event.text ?? "", deps, (text) =>
    answerInChannel(text, deps, { ...team, channelId: event.channel, userId: event.user }),
  );
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
