import type { SlackMessage } from "../../messages/limits.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { isRecord } from "../../util/checks.ts";
import type { Deps } from "../../wiring.ts";
import { answerForPerson } from "../commands/ask-answers.ts";
import { answerWords, type MentionTeam } from "./app-mention.ts";
import { statusWhileAnswering } from "./assistant-pane.ts";

/** A person's message in their DM with the app (`message.im`), as the bot reads it. */
export type DirectMessage = {
  channel: string;
  user: string;
  text: string;
  ts: string;
  threadTs: string | null;
};

const named = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * The question a `message` event carries, or null for every message that is no person's new
 * words in a DM: one in a channel (the app subscribes to `message.im` only, but a stray one
 * costs nothing to drop), an edit, a deletion or any other `subtype`, and a bot's post (the
 * bot's own answers above all: answering them would loop). Checked before the event gate, so a
 * dropped message costs no Durable Object request.
 */
export function directMessageOf(event: unknown): DirectMessage | null {
  if (!isRecord(event) || event.type !== "message" || event.channel_type !== "im") return null;
  if (event.subtype !== undefined || event.bot_id !== undefined || event.bot_profile !== undefined)
    return null;
  const channel = named(event.channel);
  const user = named(event.user);
  const ts = named(event.ts);
  const text = typeof event.text === "string" ? event.text.trim() : "";
  if (!channel || !user || !ts || !text) return null;
  return { channel, user, text, ts, threadTs: named(event.thread_ts) };
}

/** The answer to a DM, for the person who wrote it, from their channels (src/handlers/commands/ask-answers.ts). */
export function answerDirect(dm: DirectMessage, deps: Deps, team: MentionTeam): Promise<SlackMessage> {
  const by = { teamId: team.teamId || DEFAULT_TEAM, userId: dm.user, teamUrl: team.teamUrl };
  // In a thread (the assistant pane's): what it looks up, on the pane's status line.
  const status = dm.threadTs ? statusWhileAnswering(deps, dm.channel, dm.threadTs) : undefined;
  return answerWords(dm.text, deps, (text) => answerForPerson(text, deps, by, status));
}

/** A question sent to the app in a DM: answered there, in its thread when it was asked in one. */
export async function handleDirectMessage(event: unknown, deps: Deps, team: MentionTeam): Promise<void> {
  const dm = directMessageOf(event);
  if (!dm) return;
  const message = await answerDirect(dm, deps, team);
  try {
    await deps.slack.chat.postMessage({
      channel: dm.channel,
      ...(dm.threadTs ? { thread_ts: dm.threadTs } : {}),
      text: message.text,
      blocks: message.blocks,
    });
  } catch (error) {
    console.warn(`DM answer failed (${classifySlackFailure(error).code})`);
  }
}
