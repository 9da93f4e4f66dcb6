import { timelineMessage } from "../blocks/index.ts";
import { sessionDetailAction } from "./session-detail.ts";

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
