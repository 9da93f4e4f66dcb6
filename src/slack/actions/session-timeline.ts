import { timelineMessage } from "../blocks/index.ts";
import { sessionDetailAction } from "./session-detail.ts";

/** **Timeline**: pages, activities and loading issues of one session. */
export const sessionTimelineAction = sessionDetailAction(
  async (deps, sessionId) =>
    timelineMessage({
      sessionId,
      timeline: await deps.vendor.getSessionTimeline(sessionId),
      appUrl: deps.config.decipherAppUrl,
    }),
  "timeline for this session",
);
