import type { AssistantThreadStartedEvent } from "slack-edge";
import { lookingUp, suggestedPrompts } from "../../messages/assistant-pane.ts";
import type { Question } from "../../model/ask/question.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { onceEach } from "../commands/ask-answers.ts";
import { subscriptionsOfPerson } from "../person-subscriptions.ts";
import type { MentionTeam } from "./app-mention.ts";

/**
 * Slack's assistant pane (Agents & AI apps, the manifest's `assistant_view`): a thread in the
 * person's DM with the app. Its questions arrive as `message.im` in that thread and are
 * answered like any DM (src/handlers/mentions/direct-message.ts); here is what only the pane
 * has: the suggested prompts of a new thread, and the status line while an answer is read
 * (docs/slack-platform.md, "The assistant pane").
 */

const failed = (what: string) => (error: unknown) =>
  console.warn(`${what} failed (${classifySlackFailure(error).code})`);

/** Title over the prompts (the method's `title`: "Suggested Prompts, Related Questions"). */
const PROMPTS_TITLE = "Ask about your tests";

/**
 * `assistant_thread_started`: the person opened the pane (or a new chat in it). Its prompts are
 * built from the tests and collections of the watched channels the person is in, as their DM's
 * answers are; the channel they are looking at (`context`) changes nothing.
 */
export async function handleAssistantThreadStarted(
  event: AssistantThreadStartedEvent,
  deps: Deps,
  team: MentionTeam,
): Promise<void> {
  const { user_id: userId, channel_id: channelId, thread_ts: threadTs } = event.assistant_thread;
  const theirs = await subscriptionsOfPerson(deps, team.teamId || DEFAULT_TEAM, userId);
  const prompts = suggestedPrompts(theirs.unchecked ? [] : onceEach(theirs.subscriptions));
  await deps.slack.assistant.threads
    .setSuggestedPrompts({ channel_id: channelId, thread_ts: threadTs, title: PROMPTS_TITLE, prompts })
    .then(() => {}, failed("assistant.threads.setSuggestedPrompts"));
}

/**
 * The status line of a question asked in a thread of the DM (the pane's threads are): what the
 * bot is looking up, until its answer lands (Slack clears it then, or after two minutes). A
 * thread that is not the pane's refuses it; the answer comes all the same.
 */
export function statusWhileAnswering(deps: Deps, channelId: string, threadTs: string) {
  return (q: Question): Promise<void> =>
    deps.slack.assistant.threads
      .setStatus({ channel_id: channelId, thread_ts: threadTs, status: lookingUp(q) })
      .then(() => {}, failed("assistant.threads.setStatus"));
}
