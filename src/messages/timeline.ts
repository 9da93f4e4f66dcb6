import type { LoadingIssue, SessionTimeline, TimelinePage } from "../decipher/types.ts";
import { formatOffset } from "../decipher/units.ts";
import type { SharedSessionCard } from "./button-values.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { bold, code, italic, link, oneLine, plural } from "./mrkdwn.ts";
import { overviewText } from "./overview.ts";
import { sessionHeading } from "./session-card.ts";

export type TimelineMessageInput = {
  sessionId: string;
  /** Whose session and when, for the heading; null when the button carried only the id. */
  session?: SharedSessionCard | null;
  now?: Date;
  timeline: SessionTimeline;
  appUrl: string;
  /** The session's `createdAt`: turns epoch timestamps into "at 1:23" into the session. */
  sessionStart?: Date | string | null;
};

/** A page section each; 40 pages plus the rest of the message stay under 50 blocks. */
const MAX_PAGES = 40;
const MAX_ACTIVITIES = 12;
const MAX_FEATURES = 10;
/** About two screens of a phone; the rest is in Decipher. */
const OVERVIEW_MAX = 1200;

function pageSection(page: TimelinePage, index: number, sessionStart: TimelineMessageInput["sessionStart"]) {
  const heading = [
    `*${index + 1}.* ${code(page.page) || "_unknown page_"}`,
    `${formatOffset(page.startTime, sessionStart)}`,
    plural(page.clickCount, "click"),
  ].join(" · ");
  const features = page.featuresUsed.slice(0, MAX_FEATURES).map(oneLine).filter(Boolean);
  const activities = page.activities.slice(0, MAX_ACTIVITIES).map((a) => {
    const action = italic(a.userAction);
    return `• ${oneLine(a.summary) || "activity"}${action ? ` — ${action}` : ""}`;
  });
  const hidden = page.activities.length - activities.length;
  return section(
    [
      heading,
      features.length > 0 ? `Features: ${features.join(", ")}` : "",
      ...activities,
      hidden > 0 ? `_…and ${plural(hidden, "more activity", "more activities")}_` : "",
    ]
      .filter(Boolean)
      .join("\n"),
  );
}

function loadingIssueLine(issue: LoadingIssue, sessionStart: TimelineMessageInput["sessionStart"]): string {
  const seconds = Number.isFinite(issue.durationInSeconds)
    ? ` (${issue.durationInSeconds.toFixed(1)} s)`
    : "";
  return `:hourglass: ${oneLine(issue.description) || "Slow load"}${seconds}, ${formatOffset(issue.timestamp, sessionStart)}`;
}

/** The Timeline button's answer: pages with activities, loading issues and tags, bounded. */
export function timelineMessage(input: TimelineMessageInput): SlackMessage {
  const { sessionId, timeline, appUrl, session } = input;
  const sessionStart = input.sessionStart ?? session?.createdAt ?? null;
  const fullLink = link(sessionUrl(appUrl, sessionId), "Open the full timeline in Decipher");
  const pages = timeline.pages.slice(0, MAX_PAGES);
  const hiddenPages = timeline.pages.length - pages.length;
  const tags = timeline.tags.map((t) => code(t.tag)).filter(Boolean);
  // Paragraphs, capped: the whole overview (up to ~2,500 characters) is one link away.
  const overview = overviewText(timeline.overview, OVERVIEW_MAX, {
    url: sessionUrl(appUrl, sessionId),
    label: "Read the whole overview in Decipher",
  });
  const blocks: MessageBlock[] = [
    header("Session timeline"),
    context(sessionHeading(sessionId, session, appUrl)),
    section(overview || "_No overview._"),
    ...(tags.length > 0 ? [context(`:label: ${tags.join(" ")}`)] : []),
    ...pages.map((p, i) => pageSection(p, i, sessionStart)),
    ...(timeline.loadingIssues.length > 0
      ? packLines(
          [
            bold(`${plural(timeline.loadingIssues.length, "loading issue")}`),
            ...timeline.loadingIssues.map((l) => loadingIssueLine(l, sessionStart)),
          ],
          2,
          (n) => `_…and ${plural(n, "more")}_`,
        )
      : []),
    context(
      [
        plural(timeline.pages.length, "page"),
        hiddenPages > 0 ? `${plural(hiddenPages, "more page")} not shown` : "",
        fullLink,
      ]
        .filter(Boolean)
        .join(" · "),
    ),
  ];
  return fitMessage({
    text: `Timeline of session ${oneLine(sessionId)}: ${truncateMrkdwn(oneLine(timeline.overview), 300) || "no overview"}`,
    blocks,
  });
}
