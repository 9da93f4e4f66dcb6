import type { AiSummary, CollectionSession, IssueCollection } from "../../vendor/types.ts";
import { type DurationUnit, inferDurationUnit } from "../../vendor/units.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncateMrkdwn } from "../limits.ts";
import {
  bold,
  code,
  dateToken,
  escapeMrkdwn,
  link,
  oneLine,
  plural,
  relativeTime,
  safeUrl,
} from "../mrkdwn.ts";
import { screenshotExpiry } from "./clicks.ts";
import { context, fields, header, section } from "./elements.ts";
import { sessionUrl } from "./links.ts";
import { sessionFacts, sessionUser } from "./session-card.ts";

export type CollectionAlertInput = {
  collection: IssueCollection;
  /** `sessionCount` at the last alert (or the baseline). */
  previousCount: number;
  /** Up to 3 new sessions, ideally fetched with `include=timeline,screenshots`. */
  sessions: CollectionSession[];
  screenshotsExpiresAt: string | null;
  /** A resolved collection that got new sessions. */
  regression: boolean;
  appUrl: string;
  now: Date;
};

export type CollectionGrowthInput = Omit<CollectionAlertInput, "regression">;

const MAX_SESSIONS = 3;
const OVERVIEW_MAX = 400;

const rootCause = (c: IssueCollection) => c.rootCause.trim() || `Issue collection #${c.id}`;

/** "12 → 20 (+8)" */
export function growth(previous: number, current: number): string {
  const delta = current - previous;
  return `${previous.toLocaleString("en-US")} → ${current.toLocaleString("en-US")} (${delta >= 0 ? "+" : "−"}${Math.abs(delta).toLocaleString("en-US")})`;
}

function aiSummaryText(summary: AiSummary): string {
  const rows: [string, string][] = [
    ["Category", summary.category],
    ["Feature", summary.productFeature],
    ["Behavior", summary.behavior],
    ["Error", summary.errorText],
    ["Why", summary.reasoning],
  ];
  return rows
    .filter(([, v]) => v?.trim())
    .map(([label, v]) => `${bold(label)}: ${truncateMrkdwn(escapeMrkdwn(v).trim(), 600)}`)
    .join("\n");
}

/** One new session: link, who, when, facts, its timeline overview and error screenshots. */
function newSessionSection(
  session: CollectionSession,
  appUrl: string,
  now: Date,
  durationUnit: DurationUnit | undefined,
): MessageBlock {
  const shots = [
    safeUrl(session.errorScreenshots?.main) ? link(session.errorScreenshots?.main, "error screenshot") : "",
    safeUrl(session.errorScreenshots?.after) ? link(session.errorScreenshots?.after, "after") : "",
  ].filter(Boolean);
  const issueAt = session.representativeIssue?.latestIssueAt ?? session.createdAt;
  const overview = session.timeline
    ? truncateMrkdwn(escapeMrkdwn(session.timeline.overview).trim(), OVERVIEW_MAX)
    : "";
  return section(
    [
      `• *${link(sessionUrl(appUrl, session.id), sessionUser(session))}* · ${[relativeTime(issueAt, now), dateToken(issueAt)].filter(Boolean).join(" · ")}`,
      sessionFacts(session, durationUnit),
      overview,
      shots.length > 0 ? `:frame_with_picture: ${shots.join(" / ")}` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  );
}

function evidence(input: CollectionGrowthInput): MessageBlock[] {
  const { sessions, screenshotsExpiresAt, appUrl, now } = input;
  const shown = sessions.slice(0, MAX_SESSIONS);
  if (shown.length === 0) return [];
  const hasShots = shown.some((s) => safeUrl(s.errorScreenshots?.main) || safeUrl(s.errorScreenshots?.after));
  const durationUnit = inferDurationUnit(sessions.map((s) => s.duration));
  return [
    section(bold(shown.length === 1 ? "New session" : `${shown.length} new sessions`)),
    ...shown.map((s) => newSessionSection(s, appUrl, now, durationUnit)),
    ...(hasShots ? [context(screenshotExpiry(screenshotsExpiresAt, now))] : []),
  ];
}

function countFields(input: CollectionGrowthInput, regression: boolean): MessageBlock {
  const { collection, previousCount } = input;
  return fields([
    ["Sessions", growth(previousCount, collection.sessionCount)],
    ["Errors", collection.errorCount.toLocaleString("en-US")],
    ["Estimated users", collection.estimatedUsers.toLocaleString("en-US")],
    [
      "State",
      regression
        ? ":rotating_light: was resolved, has new sessions"
        : collection.isResolved
          ? "resolved"
          : "unresolved",
    ],
  ]);
}

/** The parent alert when a watched issue collection grows (or regresses). */
export function collectionAlert(input: CollectionAlertInput): SlackMessage {
  const { collection, previousCount, sessions, regression } = input;
  const cause = rootCause(collection);
  const title = regression
    ? `:rotating_light: Regression: ${cause}`
    : `:chart_with_upwards_trend: Issue growing: ${cause}`;
  const summary = sessions.find((s) => s.representativeIssue?.aiSummary)?.representativeIssue?.aiSummary;
  const path = collection.shortenedPath ? code(collection.shortenedPath) : "";
  const kind = oneLine(collection.type);
  return fitMessage({
    text: `${regression ? "Regression" : "Issue collection grew"}: ${oneLine(cause)}: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks: [
      header(title),
      section(
        [
          `${bold(cause)}`,
          [`Collection #${collection.id}`, kind, path ? `on ${path}` : ""].filter(Boolean).join(" · "),
        ].join("\n"),
      ),
      countFields(input, regression),
      ...(summary
        ? [
            section(
              `:robot_face: ${bold("AI summary of the representative issue")}\n${aiSummaryText(summary)}`,
            ),
          ]
        : []),
      ...evidence(input),
    ],
  });
}

/** Later growth of the same collection, in the thread of its alert. */
export function collectionGrowthReply(input: CollectionGrowthInput): SlackMessage {
  const { collection, previousCount } = input;
  const line = `:chart_with_upwards_trend: Grew again: ${growth(previousCount, collection.sessionCount)} sessions · ${plural(collection.errorCount, "error")} · ${plural(collection.estimatedUsers, "estimated user")}`;
  return fitMessage({
    text: `${oneLine(rootCause(collection))} grew again: ${growth(previousCount, collection.sessionCount)} sessions`,
    blocks: [section(line), ...evidence(input)],
  });
}
