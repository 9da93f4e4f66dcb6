import { decodeChannelPageValue } from "../../messages/button-values.ts";
import { errorMessage } from "../../messages/help.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { channelPageMessage } from "../commands/decipher-command-handler.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

/**
 * **More** and **First page** of `/decipher list` and `status`: another page of the channel
 * the reply is in (never a channel the button names), in place of the one clicked.
 */
export const channelPageAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const page = decodeChannelPageValue(clickedValue(req));
    // A message's click names its channel; a view's (Home) names none, and gets no page.
    const payload = req.payload as { channel?: { id?: string }; container?: { channel_id?: string } };
    const channelId = payload.channel?.id ?? payload.container?.channel_id;
    if (!page || !channelId) {
      await reply(
        req.context.respond,
        errorMessage("That button no longer works. Run `/decipher list` or `/decipher status` again."),
      );
      return;
    }
    const where = { teamId: req.payload.team?.id || DEFAULT_TEAM, channelId };
    const message = await channelPageMessage(deps, page.view, where, { from: page.from, page: page.page });
    await reply(req.context.respond, message, { replaceOriginal: true });
  },
});
