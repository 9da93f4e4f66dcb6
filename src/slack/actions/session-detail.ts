import type { Deps } from "../../deps.ts";
import { decodeSessionIdValue } from "../blocks/action-ids.ts";
import { errorMessage } from "../blocks/index.ts";
import type { SlackMessage } from "../limits.ts";
import { respond } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import { type ButtonHandler, clickedValue, noAck } from "./types.ts";

/**
 * A button that shows one more view of a session, just to the person who clicked: the value
 * is the session id, `load` fetches and renders, and any vendor failure becomes a sentence.
 */
export function sessionDetailAction(
  load: (deps: Deps, sessionId: string) => Promise<SlackMessage>,
  subject: string,
): ButtonHandler {
  return {
    ack: noAck,
    lazy: async (req, deps) => {
      const responseUrl = req.context.responseUrl;
      if (!responseUrl) return;
      const sessionId = decodeSessionIdValue(clickedValue(req));
      const message = sessionId
        ? await load(deps, sessionId).catch((error: unknown) =>
            errorMessage(vendorErrorSentence(error, subject)),
          )
        : errorMessage("That button no longer works. Run `/sessions` again.");
      await respond(responseUrl, message);
    },
  };
}
