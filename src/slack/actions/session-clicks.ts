import { decodeSessionIdValue } from "../blocks/action-ids.ts";
import { clicksMessage, errorMessage } from "../blocks/index.ts";
import { respond } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import { type ButtonHandler, clickedValue, noAck } from "./types.ts";

/** **Clicks**: every click with its before/after screenshot links and when they expire. */
export const sessionClicksAction: ButtonHandler = {
  ack: noAck,
  lazy: async (req, deps) => {
    const responseUrl = req.context.responseUrl;
    if (!responseUrl) return;
    const sessionId = decodeSessionIdValue(clickedValue(req));
    if (!sessionId) {
      await respond(responseUrl, errorMessage("That button no longer works. Run `/sessions` again."));
      return;
    }
    const message = await deps.vendor
      .getSessionClicks(sessionId)
      .then((clicks) =>
        clicksMessage({ sessionId, clicks, appUrl: deps.config.decipherAppUrl, now: deps.now() }),
      )
      .catch((error: unknown) => errorMessage(vendorErrorSentence(error, "session")));
    await respond(responseUrl, message);
  },
};
