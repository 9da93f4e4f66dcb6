import { decodeShareValue } from "../blocks/action-ids.ts";
import { errorMessage, sharedSessionMessage } from "../blocks/index.ts";
import { classifySlackFailure, describeSlackFailure } from "../errors.ts";
import { plain } from "../replies/decipher-replies.ts";
import { respond } from "../respond.ts";
import { type ButtonHandler, clickedValue, noAck } from "./types.ts";

/** **Share**: posts the card in the channel, saying who shared it. */
export const sessionShareAction: ButtonHandler = {
  ack: noAck,
  lazy: async (req, deps) => {
    const responseUrl = req.context.responseUrl;
    const channelId = req.context.channelId;
    const card = decodeShareValue(clickedValue(req));
    if (!card || !channelId) {
      if (responseUrl)
        await respond(responseUrl, errorMessage("That button no longer works. Run `/sessions` again."));
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
      if (responseUrl) await respond(responseUrl, plain("Shared in this channel."));
    } catch (error) {
      if (responseUrl)
        await respond(
          responseUrl,
          errorMessage(`Could not share: ${describeSlackFailure(classifySlackFailure(error))}`),
        );
    }
  },
};
