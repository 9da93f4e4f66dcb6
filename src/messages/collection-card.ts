import type { AiSummary, CollectionSession, IssueCollection } from "../decipher/types.ts";
import { type DurationUnit, inferDurationUnit } from "../decipher/units.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { aiSummaryOf, type CollectionAlertEvidence, type GuardMark } from "../model/alert-evidence.ts";
import { mentionToken } from "../model/mention.ts";
import type { CountMark } from "../model/subscription.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { type TriageState, triageLines } from "./alert-status.ts";
import { encodeCollectionSessionsValue, toSharedSessionCard } from "./button-values.ts";
import { actions, button, context, header, image, section } from "./elements.ts";
import { growthChartBlocks } from "./growth-chart.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { collectionUrl, runUrl, sessionUrl, testUrl } from "./links.ts";
import { bold, code, dateToken, link, oneLine, plural, toDate } from "./mrkdwn.ts";
import { overviewText } from "./overview.ts";
import { sessionButtons } from "./session-buttons.ts";
import { sessionFacts, sessionUser } from "./session-card.ts";
import { resubscribeCommand, triageControls } from "./triage-controls.ts";

/**
 * A growing issue collection, compact: the parent says what (linked to the collection in
 * Decipher), how much and since when (one line), the one most useful line of the AI summary
 * and at most one new session; a button lists the other new sessions with the full summary.
 * Later growth replies in the same thread, with its own new sessions and the same "…and N more"
 * button for the rest; the parent is re-rendered from what it showed when
 * it was posted (its evidence), with the current count and triage state.
 */

export type CollectionParentInput = TriageState & {
  /** The subscription, for the triage controls; null leaves them out. */
  ref: SubscriptionRef | null;
  collection: IssueCollection;
  /** `sessionCount` before this card's first alert: the parent shows growth since then. */
  previousCount: number;
  /** What the card showed when it was posted (src/model/alert-evidence.ts). */
  evidence: CollectionAlertEvidence;
  /** A resolved collection that got new sessions. */
  regression: boolean;
  /** The subscription's growth threshold: what "Snooze until +N more sessions" offers. */
  growthStep?: number | null | undefined;
  /**
   * Who this alert pings (src/model/mention.ts). Given for a new alert's post only: a thread
   * reply or an edit of the card never carries it, so nobody is pinged twice for one growth.
   */
  mention?: string | null | undefined;
  /** The count at each alert so far, this one included: the growth chart (src/messages/growth-chart.ts). */
  growthMarks?: readonly CountMark[] | undefined;
  appUrl: string;
  now: Date;
};

export type CollectionReplyInput = {
  collection: IssueCollection;
  /** The count this reply's growth starts from. */
  previousCount: number;
  /** When that count was taken (the last alert): the reply's growth says it is counted from then. */
  countedSince?: string | null | undefined;
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

/**
 * "18 → 25 sessions (+7 since Feb 16 at 09:00) · 53 errors · 8 users · `/checkout/payment`". The
 * growth names where it is counted from (the last alert, or subscribing): the weekly report,
 * the digest and the status count from other moments, and each says its own, so two numbers
 * for one collection never read as a contradiction.
 */
export function countsLine(
  collection: IssueCollection,
  previousCount: number,
  since: string | null | undefined = null,
): string {
  const counted = growth(previousCount, collection.sessionCount).replace(" (", " sessions (");
  const sessions = since ? counted.replace(/\)$/, ` since ${dateToken(since)})`) : counted;
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

function screenshotsUsable(expiresAt: string | null, now: Date): boolean {
  const at = toDate(expiresAt);
  // No expiry given: the vendor documents ~3 h, so a fresh fetch is taken as usable.
  return !at || at.getTime() - now.getTime() > IMAGE_MARGIN_MS;
}

/** The collection's name, linked to its page in Decipher. */
const collectionLink = (c: IssueCollection, appUrl: string) =>
  `*${link(collectionUrl(appUrl, c.id), rootCause(c))}*`;

type SessionView = {
  appUrl: string;
  now: Date;
  screenshotsExpiresAt: string | null;
  collectionId: number;
};

/**
 * One new session: who and when (its start, as every answer about it says), facts, overview,
 * its error screenshot while the link lives (else a sentence saying so), and its buttons.
 */
function sessionBlocks(
  session: CollectionSession,
  view: SessionView,
  overviewMax: number,
  durationUnit: DurationUnit | undefined,
): MessageBlock[] {
  const { appUrl, now } = view;
  const url = sessionUrl(appUrl, session.id);
  const overview = session.timeline
    ? overviewText(session.timeline.overview, overviewMax, { url, label: "Read the rest in Decipher" })
    : "";
  const shot = session.errorScreenshots?.main ?? session.errorScreenshots?.after ?? null;
  const usable = shot !== null && screenshotsUsable(view.screenshotsExpiresAt, now);
  const expired =
    shot !== null && !usable
      ? context(
          `:frame_with_picture: The error screenshot's link expired ${dateToken(view.screenshotsExpiresAt)}; *Screenshots* asks Decipher for a fresh one.`,
        )
      : null;
  return [
    section(
      [
        `*${link(url, sessionUser(session))}* · ${dateToken(session.createdAt)}`,
        sessionFacts(session, durationUnit),
        overview,
      ]
        .filter(Boolean)
        .join("\n"),
    ),
    ...(usable ? image(shot, `Error screenshot of ${sessionUser(session)}'s session`) : []),
    ...(expired ? [expired] : []),
    ...actions(
      ...sessionButtons(toSharedSessionCard(session), appUrl, {
        screenshots: shot !== null,
        collectionId: view.collectionId,
      }),
    ),
  ];
}

/**
 * "Tests on this page: Checkout flow (#10069 failed <date>)": a collection alert names the tests
 * of its page, each with the newest run its own object had seen, dated. The date, not "last run
 * as of the alert", keeps it true: the test may have run again since its object last looked,
 * and later growth edits the card. Guards stored without a run's date say when they were read.
 */
function guardsLine(guards: readonly GuardMark[], at: string | null | undefined, appUrl: string): string {
  if (guards.length === 0) return "";
  const shown = guards.slice(0, 5);
  const parts = shown.map((t) => {
    const test = link(testUrl(appUrl, t.testId), t.testName.trim() || `Test ${t.testId}`);
    if (t.lastRunId === null) return test;
    if (t.lastRunId <= 0) return `${test} (no run yet)`;
    const run = link(runUrl(appUrl, t.testId, t.lastRunId), `#${t.lastRunId}`);
    const state = t.failing ? "failed" : "passed";
    return t.lastRunAt
      ? `${test} (${run} ${state} ${dateToken(t.lastRunAt)})`
      : `${test} (last run ${run} ${state})`;
  });
  const undated = shown.some((t) => t.lastRunId !== null && t.lastRunId > 0 && !t.lastRunAt);
  return `:test_tube: Tests on this page${at && undated ? `, as of ${dateToken(at)}` : ""}: ${parts.join(", ")}`;
}

/**
 * The new sessions since the alert's start as of now: the button's count, plus the sessions the
 * collection gained since that count was read.
 */
export function newSessionsNow(
  target: { count: number | null; total: number | null },
  sessionCountNow: number,
): number | null {
  if (target.count === null) return null;
  if (target.total === null) return target.count;
  return target.count + Math.max(0, sessionCountNow - target.total);
}

/**
 * The new sessions the card counts and does not show: its growth as it reads now (an edit
 * shows the current count), less the one session it shows.
 */
function moreSessionsOf(input: CollectionParentInput): number {
  const shown = input.evidence.session ? 1 : 0;
  const grown = input.collection.sessionCount - input.previousCount;
  return grown > 0 ? Math.max(0, grown - shown) : input.evidence.moreSessions;
}

/**
 * "…and 2 more new sessions since <date>" with **Show new sessions**: the new sessions an alert
 * counts and does not show, one click away. The parent and the growth replies say it the same
 * way; the button counts the shown ones too, since its answer lists every new session.
 */
function moreSessionsBlock(o: {
  collection: IssueCollection;
  appUrl: string;
  /** Where the growth is counted from: the answer lists the sessions new since then. */
  since: string | null;
  /** New sessions counted and not shown. */
  more: number;
  /** New sessions the message shows. */
  shown: number;
}): MessageBlock[] {
  const { collection, since, more, shown } = o;
  if (more <= 0) return [];
  const when = since ? dateToken(since) : "the last alert";
  // Nothing shown (the evidence read failed): they are not "more" than anything.
  const line =
    shown > 0
      ? `…and ${plural(more, "more new session")} since ${when}`
      : `${plural(more, "new session")} since ${when}`;
  const value = encodeCollectionSessionsValue(collection.id, since, more + shown, collection.sessionCount);
  const show = value
    ? button({ text: "Show new sessions", actionId: ACTION_IDS.collectionSessions, value })
    : null;
  const block = section(
    show ? line : `${line}: ${link(collectionUrl(o.appUrl, collection.id), "see them in Decipher")}`,
  );
  return [show ? { ...block, accessory: show } : block];
}

/** The parent alert of a growing (or regressed) collection, from what it showed when posted. */
export function collectionParent(input: CollectionParentInput): SlackMessage {
  const { collection, previousCount, evidence, regression, ref, now, appUrl } = input;
  const cause = rootCause(collection);
  const headline = summaryHeadline(evidence.aiSummary);
  const status = triageLines(
    input,
    now,
    resubscribeCommand({ kind: "collection", id: collection.id }),
    "growth while it was muted is not posted: it is counted from the count at the unmute",
  );
  const icon = regression ? ":rotating_light: *Regression:*" : ":chart_with_upwards_trend:";
  const guards = guardsLine(evidence.guards, evidence.guardsAt, appUrl);
  const session = evidence.session;
  const ping = mentionToken(input.mention);
  const blocks: MessageBlock[] = [
    section(`${icon} ${collectionLink(collection, appUrl)}`),
    ...(ping ? [context(`:bell: ${ping}`)] : []),
    context(
      [
        countsLine(collection, previousCount, evidence.since),
        regression ? "was resolved, has new sessions" : "",
      ]
        .filter(Boolean)
        .join(" · "),
    ),
    ...growthChartBlocks(input.growthMarks),
    ...(headline ? [section(`:robot_face: ${headline}`)] : []),
    ...(session
      ? sessionBlocks(
          session,
          { appUrl, now, screenshotsExpiresAt: evidence.screenshotsExpiresAt, collectionId: collection.id },
          INLINE_OVERVIEW,
          inferDurationUnit([session.duration]),
        )
      : []),
    ...moreSessionsBlock({
      collection,
      appUrl,
      since: evidence.since,
      more: moreSessionsOf(input),
      shown: session ? 1 : 0,
    }),
    ...(guards ? [context(guards)] : []),
    ...(status.length > 0 ? [context(status.join("\n"))] : []),
    ...actions(
      ...triageControls({
        ref,
        growthStep: input.growthStep ?? null,
        snoozed: Boolean(input.snooze),
        muted: Boolean(input.muted),
        name: rootCause(input.collection),
      }),
    ),
  ];
  return fitMessage({
    text: `${regression ? "Regression" : "Issue collection grew"}: ${oneLine(cause)}: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks,
  });
}

/** "• <jane@acme.com> · 3m 10s · Chrome · 2 min ago": a new session in one line, its card behind the button. */
function compactSessionLines(input: CollectionReplyInput, sessions: readonly CollectionSession[]): string[] {
  const durationUnit = inferDurationUnit(input.sessions.map((s) => s.duration));
  return sessions.map(
    (s) =>
      `• ${link(sessionUrl(input.appUrl, s.id), sessionUser(s))} · ${sessionFacts(s, durationUnit)} · ${dateToken(s.createdAt, "{ago}")}`,
  );
}

function threadSessions(input: CollectionReplyInput, sessions: readonly CollectionSession[]): MessageBlock[] {
  const durationUnit = inferDurationUnit(input.sessions.map((s) => s.duration));
  const shown = sessions.slice(0, MAX_THREAD_SESSIONS);
  const hidden = sessions.length - shown.length;
  const view = {
    appUrl: input.appUrl,
    now: input.now,
    screenshotsExpiresAt: input.screenshotsExpiresAt,
    collectionId: input.collection.id,
  };
  return [
    ...shown.flatMap((s) => sessionBlocks(s, view, THREAD_OVERVIEW, durationUnit)),
    ...(hidden > 0
      ? [
          context(
            `…and ${plural(hidden, "more new session")}: ${link(collectionUrl(input.appUrl, input.collection.id), "see them in Decipher")}`,
          ),
        ]
      : []),
  ];
}

/**
 * The answer to "Show new sessions" (just to the clicker): the full AI summary of the
 * representative issue and the collection's sessions since the alert's starting point, read
 * when the person asked, so their screenshots are fresh.
 */
export function collectionSessionsMessage(
  input: CollectionReplyInput & {
    since: Date;
    /** Decipher has more than these. */
    more: boolean;
    /** How many new sessions the alert counted (its button says so); null on older buttons. */
    count?: number | null;
  },
): SlackMessage {
  const summary = aiSummaryOf(input.sessions);
  const { collection, appUrl } = input;
  // Newest first by each session's own time: they are new to the collection since `since`,
  // not created since it, so their times may be older than the heading's date.
  const sessions = [...input.sessions].sort(
    (a, b) => (Date.parse(b.createdAt) || 0) - (Date.parse(a.createdAt) || 0),
  );
  const listed = sessions.length;
  // The alert's count when the list is shorter than it; else, with more in Decipher, "at least".
  const counted = input.count && input.count > listed ? input.count : null;
  const hidden = counted ? counted - listed : 0;
  const inDecipher = link(collectionUrl(appUrl, collection.id), "see them in Decipher");
  const tail =
    hidden > 0
      ? `…and ${plural(hidden, "more new session")}: ${inDecipher}`
      : input.more && listed <= MAX_THREAD_SESSIONS
        ? `…and more since then: ${inDecipher}`
        : "";
  const howMany = counted
    ? `${listed} of ${counted} sessions`
    : input.more
      ? `${listed} of the sessions`
      : plural(listed, "session");
  return fitMessage({
    text: `Sessions new to ${oneLine(rootCause(collection))}`,
    blocks: [
      header(`New to the collection: ${rootCause(collection)}`),
      context(
        `${collectionLink(collection, appUrl)} · ${howMany} new to this collection since ${dateToken(input.since)}${listed > 1 ? ", newest first" : ""} · ${plural(collection.sessionCount, "session")} in all`,
      ),
      ...(summary
        ? [section(`:robot_face: ${bold("AI summary of the representative issue")}\n${fullSummary(summary)}`)]
        : []),
      ...(sessions.length > 0
        ? threadSessions(input, sessions)
        : [
            section(
              "_No sessions new to this collection since then: they may have been resolved or merged in Decipher._",
            ),
          ]),
      ...(tail ? [context(tail)] : []),
    ],
  });
}

/**
 * Later growth of the same collection, in the thread, with its own new sessions: those read
 * (at most a few) and, like the parent, how many more it counts, with **Show new sessions**.
 */
export function collectionGrowthThreadReply(input: CollectionReplyInput): SlackMessage {
  const { collection, previousCount } = input;
  const shown = input.sessions.slice(0, MAX_THREAD_SESSIONS);
  // The growth counts the new sessions; the vendor may have returned fewer (or, its window
  // reaching back a little, more): the ones read are known new, the rest are counted.
  const counted = Math.max(collection.sessionCount - previousCount, input.sessions.length);
  return fitMessage({
    text: `${oneLine(rootCause(collection))} grew again: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks: [
      section(
        [
          `:chart_with_upwards_trend: Grew again: ${countsLine(collection, previousCount, input.countedSince)}`,
          ...compactSessionLines(input, shown),
        ].join("\n"),
      ),
      // The cards, with their overviews and screenshots, are one click away: a thread of growth stays light.
      ...moreSessionsBlock({
        collection,
        appUrl: input.appUrl,
        since: input.countedSince ?? null,
        more: counted,
        shown: 0,
      }),
    ],
  });
}
