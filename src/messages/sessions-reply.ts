import type { SessionSummary, TimelineBody } from "../decipher/types.ts";
import { inferDurationUnit } from "../decipher/units.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { toSharedSessionCard } from "./button-values.ts";
import { context, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { bold, oneLine, plural } from "./mrkdwn.ts";
import { MORE_NOTE, pageButtons, pageLabel } from "./paging.ts";
import { sessionCard } from "./session-card.ts";

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
  /** Where the search was typed: its hints speak that place's language (`since:` or the form's Since). */
  askedIn?: AskedIn;
};

/** A `/sessions` command (or a mention), or the Home tab's Find sessions form. */
export type AskedIn = "command" | "form";

const NARROW: Record<AskedIn, string> = {
  command: "narrow the search with since:/until:",
  form: "narrow the search with a later Since in Find sessions",
};
const WIDEN: Record<AskedIn, string> = {
  command: "Try a longer range, e.g. `since:30d`, or check the spelling.",
  form: "Try an earlier Since in Find sessions (e.g. 30d), or check the spelling.",
};
/**
 * A search with no range set none: offering a longer one would say it had one. (Decipher does
 * not document a default window for the sessions list, docs/decipher-api.md.)
 */
const ALL_KEPT: Record<AskedIn, string> = {
  command: "That searched with no date range. Check the spelling, or search by `user:<id>` or `url:<text>`.",
  form: "That searched with no date range. Check the spelling, or search by user id or URL.",
};

/** The ephemeral `/sessions` reply: one card per session, then the More button. */
export function sessionsMessage(input: SessionsMessageInput): SlackMessage {
  const { sessions, timelines, subject, appUrl, now, more, first } = input;
  const page = input.page && input.page > 1 ? input.page : 1;
  const askedIn = input.askedIn ?? "command";
  if (sessions.length === 0) return noSessionsMessage(subject, askedIn);
  const shown = sessions.slice(0, MAX_CARDS);
  const hidden = sessions.length - shown.length;
  const durationUnit = inferDurationUnit(sessions.map((s) => s.duration));
  const cards = shown.flatMap((s) =>
    sessionCard(toSharedSessionCard(s), timelines[s.id], { appUrl, now, variant: "ephemeral", durationUnit }),
  );
  const footer = [
    pageLabel(page),
    `Showing ${plural(shown.length, "session")}`,
    hidden > 0 ? `${hidden} more not shown here: ${NARROW[askedIn]}` : "",
    more ? MORE_NOTE : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const blocks: MessageBlock[] = [
    section(`:mag: ${bold(`Sessions for ${subject}`)}${page > 1 ? ` · page ${page}` : ""}`),
    ...cards,
    context(footer),
    ...pageButtons({
      page,
      first: first ?? null,
      more: more ?? null,
      actionIds: { first: ACTION_IDS.sessionsFirst, more: ACTION_IDS.sessionsMore },
    }),
  ];
  return fitMessage({ text: `${plural(sessions.length, "session")} for ${oneLine(subject)}`, blocks });
}

/** The plain answer when a search finds nothing. */
export function noSessionsMessage(
  subject: string,
  askedIn: AskedIn = "command",
  /** The search had a `since:` or `until:`: a wider range may find more. */
  ranged = true,
): SlackMessage {
  const text = `No sessions for ${oneLine(subject)}.`;
  return fitMessage({ text, blocks: [section(text), context((ranged ? WIDEN : ALL_KEPT)[askedIn])] });
}
