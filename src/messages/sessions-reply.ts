import type { SessionSummary, TimelineBody } from "../vendor/types.ts";
import { inferDurationUnit } from "../vendor/units.ts";
import { ACTION_IDS, toSharedSessionCard } from "./action-ids.ts";
import { actions, button, context, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { bold, oneLine, plural } from "./mrkdwn.ts";
import { sessionCard } from "./session-card.ts";

/**
 * Cards per reply. Ask the vendor for this many sessions a page: a card takes two blocks,
 * and more would neither fit 50 blocks nor stay readable.
 */
export const SESSIONS_PER_MESSAGE = 10;
/** Hard cap when a caller passes more: still within 50 blocks (1 + 2 × 20 + 2). */
const MAX_CARDS = 20;

export type SessionsMessageInput = {
  sessions: SessionSummary[];
  /** Timeline per session id; null when fetching it failed, absent when not fetched. */
  timelines: Record<string, TimelineBody | null>;
  /** What was searched, in words: "jane@acme.com, last 7 days". */
  subject: string;
  appUrl: string;
  now: Date;
  /** Value of the More button (`encodeMoreValue`); no button when absent. */
  more?: string | null;
  /** Which page this is (1 when absent); pages after the first say so and offer the way back. */
  page?: number;
  /** Value of the First page button (`encodeMoreValue` without a cursor). */
  first?: string | null;
};

/** The ephemeral `/sessions` reply: one card per session, then the More button. */
export function sessionsMessage(input: SessionsMessageInput): SlackMessage {
  const { sessions, timelines, subject, appUrl, now, more, first } = input;
  const page = input.page && input.page > 1 ? input.page : 1;
  if (sessions.length === 0) return noSessionsMessage(subject);
  const shown = sessions.slice(0, MAX_CARDS);
  const hidden = sessions.length - shown.length;
  const durationUnit = inferDurationUnit(sessions.map((s) => s.duration));
  const cards = shown.flatMap((s) =>
    sessionCard(toSharedSessionCard(s), timelines[s.id], { appUrl, now, variant: "ephemeral", durationUnit }),
  );
  const footer = [
    page > 1 ? `Page ${page}` : "",
    `Showing ${plural(shown.length, "session")}`,
    hidden > 0 ? `${hidden} more not shown here: narrow the search with since:/until:` : "",
    more ? "*More* loads the next page" : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const blocks: MessageBlock[] = [
    section(`:mag: ${bold(`Sessions for ${subject}`)}${page > 1 ? ` · page ${page}` : ""}`),
    ...cards,
    context(footer),
    ...actions(
      page > 1 && first
        ? button({ text: "« First page", actionId: ACTION_IDS.sessionsFirst, value: first })
        : null,
      more ? button({ text: "More", actionId: ACTION_IDS.sessionsMore, value: more }) : null,
    ),
  ];
  return fitMessage({ text: `${plural(sessions.length, "session")} for ${oneLine(subject)}`, blocks });
}

/** The plain answer when a search finds nothing. */
export function noSessionsMessage(subject: string): SlackMessage {
  const text = `No sessions for ${oneLine(subject)}.`;
  return fitMessage({
    text,
    blocks: [section(text), context("Try a longer range, e.g. `since:30d`, or check the spelling.")],
  });
}
