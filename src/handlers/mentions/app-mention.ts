import type { AppMentionEvent } from "slack-edge";
import { brokenNowMessage } from "../../messages/broken-now.ts";
import { INDEX_UNREADABLE } from "../../messages/decipher-replies.ts";
import { errorMessage, usageMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { mentionHelpMessage } from "../../messages/mention-help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { CommandInputError } from "../../model/command-input-error.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
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

/** "what is broken right now?", "anything failing?", "status": a question about the channel's state. */
const ASKS_WHAT_IS_BROKEN =
  /\b(broken|break(ing|s)?|fail(ing|ed|s|ures?)?|red|down|wrong|status|health|outage)\b/i;

/** The team a mention is asked in, and its Slack URL for links to alerts. */
export type MentionTeam = { teamId: string; teamUrl: string | null };

/** The channel's failing tests, from the state the engine stored in its index (no vendor request). */
async function brokenNow(
  channelId: string,
  deps: Deps,
  { teamId, teamUrl }: MentionTeam,
): Promise<SlackMessage> {
  const [index, health] = await Promise.all([
    deps.control.channelIndex(teamId, channelId, deps.now()).catch(() => null),
    deps.control.health().catch(() => null),
  ]);
  if (!index) return errorMessage(INDEX_UNREADABLE);
  return brokenNowMessage({
    subscriptions: index.entries.map((e) => e.subscription),
    appUrl: deps.config.decipherAppUrl,
    teamUrl,
    lastPollAt: health?.lastCycleAt ?? null,
    now: deps.now(),
  });
}

async function answerFor(event: AppMentionEvent, deps: Deps, team: MentionTeam): Promise<SlackMessage> {
  const text = event.text ?? "";
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
  if (ASKS_WHAT_IS_BROKEN.test(`${verb} ${rest}`)) return brokenNow(event.channel, deps, team);
  return mentionHelpMessage(verb);
}

/**
 * `@Decipher sessions …`, `@Decipher what is broken right now?` and `@Decipher help`, answered in the thread of the mention (a
 * mention at the top level starts one), with the same parser and cards as `/sessions`.
 */
export async function handleAppMention(
  event: AppMentionEvent,
  deps: Deps,
  team: MentionTeam = { teamId: DEFAULT_TEAM, teamUrl: null },
): Promise<void> {
  const message = await answerFor(event, deps, team);
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
