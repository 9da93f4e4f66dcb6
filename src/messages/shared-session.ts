import type { TimelineBody } from "../decipher/types.ts";
import type { SharedSessionCard } from "./button-values.ts";
import { context } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { mention, oneLine } from "./mrkdwn.ts";
import { sessionCard, sessionUser } from "./session-card.ts";

export type SharedSessionInput = {
  session: SharedSessionCard;
  timeline: TimelineBody | null;
  /** Slack user id of the person who clicked Share. */
  sharedBy: string;
  appUrl: string;
  now: Date;
};

/** The in-channel copy of a card, attributed to whoever shared it. */
export function sharedSessionMessage(input: SharedSessionInput): SlackMessage {
  const { session, timeline, sharedBy, appUrl, now } = input;
  return fitMessage({
    text: `${mention(sharedBy)} shared a Decipher session of ${oneLine(sessionUser(session))}`,
    blocks: [
      context(`:eyes: Shared by ${mention(sharedBy)}`),
      ...sessionCard(session, timeline, { appUrl, now, variant: "shared" }),
    ],
  });
}
