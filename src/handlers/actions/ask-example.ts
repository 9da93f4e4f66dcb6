import type { SlackMessage } from "../../messages/limits.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { reply } from "../../slack-api/respond.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { answerInChannel } from "../commands/ask-answers.ts";
import { answerDirect } from "../mentions/direct-message.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

/** Where the clicked help was: its channel, its thread, whether only the clicker sees it. */
type Clicked = {
  channel?: { id?: string };
  container?: Record<string, unknown>;
  message?: { thread_ts?: string };
};

const named = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * An example question of the help answer (src/messages/mention-help.ts), clicked: answered as if
 * the clicker had typed it where the help was. In a DM (or the assistant pane's thread) from the
 * clicker's channels; elsewhere from the channel's; after `/decipher ask` to the clicker alone.
 */
export const askExampleAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const question = clickedValue(req);
    const payload = req.payload as unknown as Clicked;
    const container = payload.container ?? {};
    const channelId = named(payload.channel?.id) ?? named(container.channel_id);
    const messageTs = named(container.message_ts);
    if (!question || !channelId || !messageTs) return;
    const team = {
      teamId: req.payload.team?.id || DEFAULT_TEAM,
      teamUrl: req.context.authorizeResult?.url ?? null,
    };
    const thread = named(container.thread_ts) ?? named(payload.message?.thread_ts);
    const direct = channelId.startsWith("D");
    const user = req.payload.user.id;
    const answer: SlackMessage = direct
      ? await answerDirect(
          { channel: channelId, user, text: question, ts: messageTs, threadTs: thread },
          deps,
          team,
        )
      : await answerInChannel(question, deps, { ...team, channelId, userId: user });
    if (container.is_ephemeral === true) {
      await reply(req.context.respond, answer);
      return;
    }
    // A channel's help is always in a thread; a DM's may be at the top, and so is its answer.
    const threadTs = thread ?? (direct ? null : messageTs);
    await deps.slack.chat
      .postMessage({
        channel: channelId,
        ...(threadTs ? { thread_ts: threadTs } : {}),
        text: answer.text,
        blocks: answer.blocks,
      })
      .catch((error: unknown) => console.warn(`example answer failed (${classifySlackFailure(error).code})`));
  },
});
