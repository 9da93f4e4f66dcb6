import { decodeShareValue } from "../../messages/action-ids.ts";
import { plain } from "../../messages/decipher-replies.ts";
import { errorMessage } from "../../messages/help.ts";
import { sharedSessionMessage } from "../../messages/shared-session.ts";
import { reply } from "../../slack-api/respond.ts";
import { classifySlackFailure, describeSlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

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
      await reply(
        respond,
        errorMessage(`Could not share: ${describeSlackFailure(classifySlackFailure(error))}`),
      );
    }
  },
});
