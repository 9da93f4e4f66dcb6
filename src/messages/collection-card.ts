import type { SubscriptionRef } from "../model/alert-control.ts";
import type { CountMark } from "../model/subscription.ts";
import type { AiSummary, CollectionSession, IssueCollection } from "../vendor/types.ts";
import { type DurationUnit, inferDurationUnit } from "../vendor/units.ts";
import { toSharedSessionCard } from "./action-ids.ts";
import { type TriageState, triageLines } from "./alert-status.ts";
import { actions, context, image, section } from "./elements.ts";
import { growthChartBlocks } from "./growth-chart.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { bold, code, dateToken, link, oneLine, plural, relativeTime, toDate } from "./mrkdwn.ts";
import { sessionButtons } from "./session-buttons.ts";
import { sessionFacts, sessionUser } from "./session-card.ts";
import { resubscribeCommand, triageControls } from "./triage-controls.ts";

/**
 * A growing issue collection, compact: the parent says what, how much (one line), the one most
 * useful line of the AI summary and at most one new session; the full summary and the other
 * sessions go in a thread reply. Later growth replies in the same thread; the parent is
 * re-rendered with the current count and triage state.
 */

export type CollectionParentInput = TriageState & {
  /** The subscription, for the triage controls; null leaves them out. */
  ref: SubscriptionRef | null;
  collection: IssueCollection;
  /** `sessionCount` before this card's first alert: the parent shows growth since then. */
  previousCount: number;
  /** New sessions (newest first); the first is shown inline, the rest belong in the thread. */
  sessions: readonly CollectionSession[];
  screenshotsExpiresAt: string | null;
  /** A resolved collection that got new sessions. */
  regression: boolean;
  /** The subscription's growth threshold: what "Snooze until +N more sessions" offers. */
  growthStep?: number | null | undefined;
  /** The count at each alert so far, this one included: the growth chart (src/messages/growth-chart.ts). */
  growthMarks?: readonly CountMark[] | undefined;
  appUrl: string;
  now: Date;
};

export type CollectionReplyInput = {
  collection: IssueCollection;
  /** The count this reply's growth starts from. */
  previousCount: number;
  sessions: readonly CollectionSession[];
  screenshotsExpiresAt: string | null;
  appUrl: string;
  now: Date;
};

/** Sessions per thread reply: each is a section, maybe an image and a row of buttons. */
const MAX_THREAD_SESSIONS = 5;
const INLINE_OVERVIEW = 200;
const THREAD_OVERVIEW = 600;
/**
 * Slack downloads an image block when the message is posted and refuses the whole message if
 * it cannot: a screenshot URL this close to its expiry is linked by button, not embedded.
 */
const IMAGE_MARGIN_MS = 10 * 60 * 1000;

const rootCause = (c: IssueCollection) => c.rootCause.trim() || `Issue collection #${c.id}`;
const n = (v: number) => v.toLocaleString("en-US");

/** "12 → 20 (+8)" */
export function growth(previous: number, current: number): string {
  const delta = current - previous;
  return `${n(previous)} → ${n(current)} (${delta >= 0 ? "+" : "−"}${n(Math.abs(delta))})`;
}

/** "18 → 25 sessions (+7) · 53 errors · 8 users · `/checkout/payment`" */
export function countsLine(collection: IssueCollection, previousCount: number): string {
  const sessions = growth(previousCount, collection.sessionCount).replace(" (", " sessions (");
  return [
    sessions,
    plural(collection.errorCount, "error"),
    plural(collection.estimatedUsers, "user"),
    code(collection.shortenedPath),
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The one line of the AI summary worth reading first: what users saw, else the error. */
export function summaryHeadline(summary: AiSummary | null | undefined, max = 300): string {
  const line = oneLine(summary?.behavior) || oneLine(summary?.errorText);
  return truncateMrkdwn(line, max);
}

function fullSummary(summary: AiSummary): string {
  const rows: [string, string | null | undefined][] = [
    ["Category", summary.category],
    ["Feature", summary.productFeature],
    ["Behavior", summary.behavior],
    ["Error", summary.errorText],
    ["Why", summary.reasoning],
  ];
  return rows
    .filter(([, v]) => v?.trim())
    .map(([label, v]) => `${bold(label)}: ${truncateMrkdwn(oneLine(v), 600)}`)
    .join("\n");
}

const aiSummaryOf = (sessions: readonly CollectionSession[]) =>
  sessions.find((s) => s.representativeIssue?.aiSummary)?.representativeIssue?.aiSummary ?? null;

function screenshotsUsable(expiresAt: string | null, now: Date): boolean {
  const at = toDate(expiresAt);
  // No expiry given: the vendor documents ~3 h, so a fresh fetch is taken as usable.
  return !at || at.getTime() - now.getTime() > IMAGE_MARGIN_MS;
}

/** One new session: who and when (linked), facts, overview, its error screenshot, its buttons. */
function sessionBlocks(
  session: CollectionSession,
  input: Pick<CollectionReplyInput, "appUrl" | "now" | "screenshotsExpiresAt">,
  overviewMax: number,
  durationUnit: DurationUnit | undefined,
): MessageBlock[] {
  const { appUrl, now } = input;
  const at = session.representativeIssue?.latestIssueAt ?? session.createdAt;
  const overview = session.timeline ? truncateMrkdwn(oneLine(session.timeline.overview), overviewMax) : "";
  const shot = session.errorScreenshots?.main ?? session.errorScreenshots?.after ?? null;
  const embed = shot && screenshotsUsable(input.screenshotsExpiresAt, now);
  return [
    section(
      [
        `*${link(sessionUrl(appUrl, session.id), sessionUser(session))}* · ${[relativeTime(at, now), dateToken(at)].filter(Boolean).join(" · ")}`,
        sessionFacts(session, durationUnit),
        overview,
      ]
        .filter(Boolean)
        .join("\n"),
    ),
    ...(embed ? image(shot, `Error screenshot of ${sessionUser(session)}'s session`) : []),
    ...actions(...sessionButtons(toSharedSessionCard(session), appUrl, { screenshots: Boolean(shot) })),
  ];
}

/** The parent alert of a growing (or regressed) collection. */
export function collectionParent(input: CollectionParentInput): SlackMessage {
  const { collection, previousCount, sessions, regression, ref, now } = input;
  const cause = rootCause(collection);
  const headline = summaryHeadline(aiSummaryOf(sessions));
  const first = sessions[0];
  const later = sessions.length - 1;
  const status = triageLines(input, now, resubscribeCommand({ kind: "collection", id: collection.id }));
  const icon = regression ? ":rotating_light: *Regression:*" : ":chart_with_upwards_trend:";
  const blocks: MessageBlock[] = [
    section(`${icon} ${bold(cause)}`),
    context(
      [countsLine(collection, previousCount), regression ? "was resolved, has new sessions" : ""]
        .filter(Boolean)
        .join(" · "),
    ),
    ...growthChartBlocks(input.growthMarks),
    ...(headline ? [section(`:robot_face: ${headline}`)] : []),
    ...(first
      ? sessionBlocks(first, input, INLINE_OVERVIEW, inferDurationUnit(sessions.map((s) => s.duration)))
      : []),
    ...(later > 0 ? [context(`…and ${plural(later, "more new session")} since the last alert`)] : []),
    ...(status.length > 0 ? [context(status.join("\n"))] : []),
    ...actions(
      ...triageControls({
        ref,
        growthStep: input.growthStep ?? null,
        snoozed: Boolean(input.snooze),
        muted: Boolean(input.mutedBy),
      }),
    ),
  ];
  return fitMessage({
    text: `${regression ? "Regression" : "Issue collection grew"}: ${oneLine(cause)}: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks,
  });
}

function threadSessions(input: CollectionReplyInput, sessions: readonly CollectionSession[]): MessageBlock[] {
  const durationUnit = inferDurationUnit(input.sessions.map((s) => s.duration));
  const shown = sessions.slice(0, MAX_THREAD_SESSIONS);
  const hidden = sessions.length - shown.length;
  return [
    ...shown.flatMap((s) => sessionBlocks(s, input, THREAD_OVERVIEW, durationUnit)),
    ...(hidden > 0 ? [context(`…and ${plural(hidden, "more new session")} in Decipher`)] : []),
  ];
}

/** The reply right under a new parent: the full AI summary and the new sessions it did not show. */
export function collectionDetailsReply(input: CollectionReplyInput): SlackMessage | null {
  const summary = aiSummaryOf(input.sessions);
  const rest = input.sessions.slice(1);
  if (!summary && rest.length === 0) return null;
  return fitMessage({
    text: `Details: ${oneLine(rootCause(input.collection))}`,
    blocks: [
      ...(summary
        ? [section(`:robot_face: ${bold("AI summary of the representative issue")}\n${fullSummary(summary)}`)]
        : []),
      ...(rest.length > 0 ? [section(bold(plural(rest.length, "more new session")))] : []),
      ...threadSessions(input, rest),
    ],
  });
}

/** Later growth of the same collection, in the thread, with its own new sessions. */
export function collectionGrowthThreadReply(input: CollectionReplyInput): SlackMessage {
  const { collection, previousCount } = input;
  return fitMessage({
    text: `${oneLine(rootCause(collection))} grew again: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks: [
      section(`:chart_with_upwards_trend: Grew again: ${countsLine(collection, previousCount)}`),
      ...threadSessions(input, input.sessions),
    ],
  });
}
