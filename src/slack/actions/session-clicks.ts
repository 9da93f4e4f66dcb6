import { clicksMessage } from "../blocks/index.ts";
import { sessionDetailAction } from "./session-detail.ts";

/** **Clicks**: every click with its before/after screenshot links and when they expire. */
export const sessionClicksAction = sessionDetailAction(
  async (deps, sessionId, session) =>
    clicksMessage({
      sessionId,
      session,
      clicks: await deps.vendor.getSessionClicks(sessionId),
      appUrl: deps.config.decipherAppUrl,
      now: deps.now(),
    }),
  "session",
);
