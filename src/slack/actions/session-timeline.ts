import { decodeSessionIdValue } from "../blocks/action-ids.ts";
import { errorMessage, timelineMessage } from "../blocks/index.ts";
import { respond } from "../respond.ts";
import { vendorErrorSentence } from "../vendor-error-message.ts";
import { type ButtonHandler, clickedValue, noAck } from "./types.ts";

/** **Timeline**: pages, activities and loading issues of one session, just for the clicker. */
export const sessionTimelineAction: ButtonHandler = {
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
      .getSessionTimeline(sessionId)
      .then((timeline) => timelineMessage({ sessionId, timeline, appUrl: deps.config.decipherAppUrl }))
      .catch((error: unknown) => errorMessage(vendorErrorSentence(error, "timeline for this session")));
    await respond(responseUrl, message);
  },
};
