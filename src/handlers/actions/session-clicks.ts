import { type ClicksMessageInput, clicksMessage } from "../../messages/clicks.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { screenshotsMessage } from "../../messages/screenshots.ts";
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

/**
 * **Screenshots**: the same clicks' screenshots as images, from URLs fetched just now. The
 * ones in an alert expire about 3 hours after it was posted; this is how its evidence stays
 * reachable.
 */
export const sessionScreenshotsAction = fromClicks(screenshotsMessage);
