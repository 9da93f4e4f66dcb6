import { decodeMoreValue } from "../../messages/button-values.ts";
import { errorMessage } from "../../messages/help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { renderSessionsPage } from "../commands/sessions-command.ts";
import { fromSearchValue } from "../commands/sessions-query.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

/** **More** and **First page**: another page of the same search, in place of the one clicked. */
export const sessionsPageAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const more = decodeMoreValue(clickedValue(req));
    const search = more ? fromSearchValue(more.query) : null;
    if (!more || !search) {
      await reply(req.context.respond, errorMessage("That button no longer works. Run `/sessions` again."));
      return;
    }
    const message = await renderSessionsPage(deps, search, { cursor: more.cursor, page: more.page }).catch(
      (error: unknown) => errorMessage(vendorErrorSentence(error)),
    );
    await reply(req.context.respond, message, { replaceOriginal: true });
  },
});
