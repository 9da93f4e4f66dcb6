import { screenshotsMessage } from "../blocks/screenshots.ts";
import { sessionDetailAction } from "./session-detail.ts";

/**
 * **Screenshots**: fresh screenshot URLs, fetched when a person asks. The ones in an alert
 * expire about 3 hours after it was posted; this is how its evidence stays reachable.
 */
export const sessionScreenshotsAction = sessionDetailAction(
  async (deps, sessionId, session) =>
    screenshotsMessage({
      sessionId,
      session,
      clicks: await deps.vendor.getSessionClicks(sessionId),
      appUrl: deps.config.decipherAppUrl,
      now: deps.now(),
    }),
  "session",
);
