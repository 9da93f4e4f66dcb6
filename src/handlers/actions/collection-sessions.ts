import { decodeCollectionSessionsValue } from "../../messages/button-values.ts";
import { collectionSessionsMessage, newSessionsNow } from "../../messages/collection-card.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";

/** As many as one answer shows; the rest is one link away. */
const SESSIONS = 5;

async function answer(deps: Deps, value: string | undefined): Promise<SlackMessage> {
  const target = decodeCollectionSessionsValue(value);
  if (!target) return errorMessage("That button no longer works. The collection is linked on the alert.");
  const subject = `collection ${target.collectionId}`;
  try {
    const page = await deps.vendor.listCollectionSessions(target.collectionId, {
      limit: SESSIONS,
      include: ["timeline", "screenshots"],
      since: target.since,
    });
    return collectionSessionsMessage({
      collection: page.collection,
      previousCount: page.collection.sessionCount,
      sessions: page.data,
      screenshotsExpiresAt: page.screenshotsExpiresAt,
      since: target.since,
      more: page.hasMore,
      // Counted as of this click, not as of the alert: the collection may have grown since.
      count: newSessionsNow(target, page.collection.sessionCount),
      appUrl: deps.config.decipherAppUrl,
      now: deps.now(),
    });
  } catch (error) {
    return errorMessage(vendorErrorSentence(error, subject));
  }
}

/**
 * A collection alert's "…and 2 more new sessions" button: the sessions since the alert's
 * starting point and the full AI summary, read when someone asks (so their screenshots are
 * fresh), just to them.
 */
export const collectionSessionsAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    await reply(req.context.respond, await answer(deps, clickedValue(req)));
  },
});
