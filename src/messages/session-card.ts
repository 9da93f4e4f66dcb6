import type { TimelineBody } from "../decipher/types.ts";
import { type DurationUnit, formatSessionDuration, sessionDurationSeconds } from "../decipher/units.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { encodeShareValue, type SharedSessionCard } from "./button-values.ts";
import { actions, button, section } from "./elements.ts";
import type { MessageBlock } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { code, countryLabel, dateToken, escapeMrkdwn, link } from "./mrkdwn.ts";
import { overviewText } from "./overview.ts";
import { sessionButtons } from "./session-buttons.ts";

/** What a card needs: the shared minimum, so a shared card looks like the original. */
export type CardSession = SharedSessionCard;

export type CardOptions = {
  appUrl: string;
  now: Date;
  /** `ephemeral` cards offer Share; a card already shared in the channel does not. */
  variant: "ephemeral" | "shared";
  overviewMax?: number;
  /** The unit of `duration` when the page it came from settles it (see units.ts). */
  durationUnit?: DurationUnit | undefined;
};

const OVERVIEW_MAX = 500;
const MAX_TAGS = 8;

/** "jane@acme.com", "user 42" or "Anonymous user": who the session belongs to. */
export function sessionUser(session: Pick<CardSession, "userEmail" | "userId">): string {
  if (session.userEmail) return session.userEmail;
  if (session.userId) return `user ${session.userId}`;
  return "Anonymous user";
}

/** "12 m 03 s · Chrome · Desktop · 🇩🇪 DE": the facts line of a card (no duration when none was recorded). */
export function sessionFacts(session: CardSession, durationUnit?: DurationUnit): string {
  const recorded = sessionDurationSeconds(session.duration, durationUnit) !== null;
  return [
    recorded ? `:stopwatch: ${formatSessionDuration(session.duration, durationUnit)}` : "",
    escapeMrkdwn(session.browser),
    escapeMrkdwn(session.device),
    countryLabel(session.countryCode),
  ]
    .filter((part) => part.trim() !== "")
    .join(" · ");
}

export function timelineSummary(
  session: Pick<CardSession, "hasTimeline" | "id">,
  timeline: TimelineBody | null | undefined,
  appUrl: string,
  max = OVERVIEW_MAX,
): string {
  if (!session.hasTimeline) return "_No AI timeline for this session._";
  if (!timeline) return "_AI timeline not available when this card was made._";
  const overview = overviewText(timeline.overview, max, {
    url: sessionUrl(appUrl, session.id),
    label: "Read the rest in Decipher",
  });
  const tags = timeline.tags
    .slice(0, MAX_TAGS)
    .map((t) => code(t.tag))
    .filter((t) => t !== "");
  const more = timeline.tags.length > MAX_TAGS ? ` +${timeline.tags.length - MAX_TAGS}` : "";
  return [overview, tags.length > 0 ? `:label: ${tags.join(" ")}${more}` : ""].filter(Boolean).join("\n");
}

/** One compact card: a section with link, time, facts and AI overview, then its buttons. */
export function sessionCard(
  session: CardSession,
  timeline: TimelineBody | null | undefined,
  options: CardOptions,
): MessageBlock[] {
  const { appUrl } = options;
  const text = [
    `*${link(sessionUrl(appUrl, session.id), sessionUser(session))}* · ${dateToken(session.createdAt)}`,
    sessionFacts(session, options.durationUnit),
    timelineSummary(session, timeline, appUrl, options.overviewMax),
  ].join("\n");
  return [
    section(text),
    ...actions(
      ...sessionButtons(session, appUrl),
      options.variant === "ephemeral"
        ? button({ text: "Share", actionId: ACTION_IDS.sessionShare, value: encodeShareValue(session) })
        : null,
    ),
  ];
}

/**
 * Who and when, linked: the first line of a Timeline or Clicks answer, so a reply that lands
 * among others still says which session it is about. Without the card (old buttons) the link
 * names the session by its id.
 */
export function sessionHeading(
  sessionId: string,
  card: CardSession | null | undefined,
  appUrl: string,
): string {
  const url = sessionUrl(appUrl, sessionId);
  if (!card) return `Session ${link(url, sessionId.slice(0, 8))}`;
  return `*${link(url, sessionUser(card))}*'s session · ${dateToken(card.createdAt)}`;
}
