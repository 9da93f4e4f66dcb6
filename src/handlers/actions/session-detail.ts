import { decodeSessionButtonValue, type SharedSessionCard } from "../../messages/button-values.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { timelineMessage } from "../../messages/timeline.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

export type SessionView = (
  deps: Deps,
  sessionId: string,
  card: SharedSessionCard | null,
) => Promise<SlackMessage>;

/**
 * A button that shows one more view of a session, just to the person who clicked: the value
 * names the session (and, on newer buttons, whose it is), `load` fetches and renders, and any
 * vendor failure becomes a sentence.
 */
export function sessionDetailAction(load: SessionView, subject: string) {
  return (deps: Deps): Listener<ButtonRequest> => ({
    ack: noAck,
    lazy: async (req) => {
      const target = decodeSessionButtonValue(clickedValue(req));
      const message = target
        ? await load(deps, target.id, target.card).catch((error: unknown) =>
            errorMessage(vendorErrorSentence(error, subject)),
          )
        : errorMessage("That button no longer works. Run `/sessions` again.");
      await reply(req.context.respond, message);
    },
  });
}

/** **Timeline**: pages, activities and loading issues of one session. */
export const sessionTimelineAction = sessionDetailAction(
  async (deps, sessionId, session) =>
    timelineMessage({
      sessionId,
      session,
      timeline: await deps.vendor.getSessionTimeline(sessionId),
      appUrl: deps.config.decipherAppUrl,
      now: deps.now(),
    }),
  "timeline for this session",
);
