import { paginatePages } from "../../decipher/paginate.ts";
import { decodeSessionButtonValue, type SharedSessionCard } from "../../messages/button-values.ts";
import { type ClicksMessageInput, clicksMessage } from "../../messages/clicks.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import {
  type ErrorScreenshots,
  hasImages,
  type ScreenshotsMessageInput,
  screenshotsMessage,
} from "../../messages/screenshots.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { reply } from "../../slack-api/respond.ts";
import type { Deps } from "../../wiring.ts";
import { type ButtonRequest, clickedValue, type Listener, noAck } from "./action-requests.ts";
import { sessionDetailAction } from "./session-detail.ts";

/** A view built from the session's clicks, fetched when the person asks. */
const fromClicks = (render: (input: ClicksMessageInput) => SlackMessage) =>
  sessionDetailAction(
    async (deps, sessionId, session) =>
      render({
        sessionId,
        session,
        clicks: await deps.vendor.getSessionClicks(sessionId),
        appUrl: deps.config.decipherAppUrl,
        now: deps.now(),
      }),
    "session",
  );

/** **Clicks**: every click with its before/after screenshot links and when they expire. */
export const sessionClicksAction = fromClicks(clicksMessage);

/** Pages of a collection's sessions read to find one session's error screenshot. */
const ERROR_SHOT_PAGES = 3;

/**
 * A collection session's error screenshot, fresh: the collection's sessions from just before
 * this one started (Decipher lists them by their latest issue, which comes after the start).
 * Null when the collection no longer lists the session.
 */
async function errorScreenshots(
  deps: Deps,
  collectionId: number,
  sessionId: string,
  card: SharedSessionCard | null,
): Promise<ErrorScreenshots | null> {
  const started = card ? Date.parse(card.createdAt) : Number.NaN;
  const since = Number.isFinite(started) ? new Date(started - 60_000) : undefined;
  const pages = paginatePages(
    (cursor) =>
      deps.vendor.listCollectionSessions(collectionId, {
        limit: 50,
        include: ["screenshots"],
        ...(since ? { since } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    { maxPages: ERROR_SHOT_PAGES },
  );
  for await (const page of pages) {
    const found = page.data.find((s) => s.id === sessionId);
    if (found) {
      const shots = found.errorScreenshots ?? null;
      return { main: shots?.main ?? null, after: shots?.after ?? null, expiresAt: page.screenshotsExpiresAt };
    }
  }
  return null;
}

/**
 * **Screenshots**: the session's screenshots as images, from URLs fetched just now (the ones
 * in an alert expire about 3 hours after it was posted; this is how its evidence stays
 * reachable). A collection session's button also names the collection, so the answer starts
 * with the error screenshot the alert showed. If Slack cannot load the images, the answer
 * comes again as links, saying so, rather than not at all.
 */
export const sessionScreenshotsAction = (deps: Deps): Listener<ButtonRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const respond = req.context.respond;
    const target = decodeSessionButtonValue(clickedValue(req));
    if (!target) {
      await reply(respond, errorMessage("That button no longer works. Run `/sessions` again."));
      return;
    }
    let input: ScreenshotsMessageInput;
    try {
      const [clicks, error] = await Promise.all([
        deps.vendor.getSessionClicks(target.id),
        target.collectionId === null
          ? Promise.resolve(undefined)
          : errorScreenshots(deps, target.collectionId, target.id, target.card),
      ]);
      input = {
        sessionId: target.id,
        session: target.card,
        clicks,
        ...(error === undefined ? {} : { error }),
        appUrl: deps.config.decipherAppUrl,
        now: deps.now(),
      };
    } catch (error) {
      await reply(respond, errorMessage(vendorErrorSentence(error, "session")));
      return;
    }
    const message = screenshotsMessage(input);
    if (!(await reply(respond, message)) && hasImages(message))
      await reply(respond, screenshotsMessage({ ...input, asLinks: true }));
  },
});
