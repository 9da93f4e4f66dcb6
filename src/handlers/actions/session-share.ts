import { decodeShareValue } from "../../messages/button-values.ts";
import { plain } from "../../messages/decipher-replies.ts";
import { errorMessage } from "../../messages/help.ts";
import { sharedSessionMessage } from "../../messages/shared-session.ts";
import { reply } from "../../slack-api/respond.ts";
import {
  classifySlackFailure,
  describeSlackFailure,
  type SlackFailure,
} from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

/** Why the card could not be shared, and what makes Share work: about sharing, not subscribing. */
export function shareRefusal(failure: SlackFailure): string {
  switch (failure.code) {
    case "not_in_channel":
    case "channel_not_found":
      return "Could not share: I am not in this channel. Invite me with `/invite @Decipher`, then click Share again.";
    case "is_archived":
      return "Could not share: this channel is archived.";
    default:
      if (failure.kind === "workspace")
        return `Could not share: Slack refused the bot (${failure.code}). An admin needs to check its token and scopes.`;
      if (failure.kind === "transient" || failure.kind === "unknown")
        return `Could not share: Slack did not take it (${failure.code}). Try again in a minute.`;
      return `Could not share: ${describeSlackFailure(failure)}`;
  }
}

/** **Share**: posts the card in the channel, saying who shared it. */
export const sessionShareAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const respond = req.context.respond;
    const channelId = req.context.channelId;
    const card = decodeShareValue(clickedValue(req));
    if (!card || !channelId) {
      await reply(respond, errorMessage("That button no longer works. Run `/sessions` again."));
      return;
    }
    // The overview is a nice-to-have: the card is shared without it if the timeline fails.
    const timeline = card.hasTimeline
      ? await deps.vendor.getSessionTimeline(card.id).catch(() => null)
      : null;
    const message = sharedSessionMessage({
      session: card,
      timeline,
      sharedBy: req.payload.user.id,
      appUrl: deps.config.decipherAppUrl,
      now: deps.now(),
    });
    try {
      await deps.slack.chat.postMessage({ channel: channelId, text: message.text, blocks: message.blocks });
      await reply(respond, plain("Shared in this channel."));
    } catch (error) {
      await reply(respond, errorMessage(shareRefusal(classifySlackFailure(error))));
    }
  },
});
