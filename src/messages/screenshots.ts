import type { Click, SessionClicks } from "../decipher/types.ts";
import { formatIntoSession } from "../decipher/units.ts";
import type { SharedSessionCard } from "./button-values.ts";
import { clickTypeWords, screenshotExpiry } from "./clicks.ts";
import { context, header, image, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { dateToken, link, oneLine, plural, safeUrl, toDate } from "./mrkdwn.ts";
import { sessionHeading } from "./session-card.ts";

/** A collection session's error screenshots, as Decipher lists them with the collection. */
export type ErrorScreenshots = { main: string | null; after: string | null; expiresAt: string | null };

export type ScreenshotsMessageInput = {
  sessionId: string;
  session?: SharedSessionCard | null;
  /** Fetched when the person asked: its URLs are fresh for about 3 hours from now. */
  clicks: SessionClicks;
  /**
   * A collection's session: the error screenshot its alert showed, fetched fresh; null when
   * the collection no longer lists the session, undefined for a session of no collection.
   */
  error?: ErrorScreenshots | null;
  appUrl: string;
  now: Date;
  /** Slack could not load the images: the same answer as links, saying so. */
  asLinks?: boolean;
};

/** Images per answer: each is a block, and a long wall of screenshots helps nobody. */
const MAX_IMAGES = 12;

type Shot = { url: string; title: string };

function shotsOf(click: Click, sessionStart: string | null): Shot[] {
  // The Clicks answer's words for the kind ("dead click"), and when in the session.
  const what = `${clickTypeWords(click.type).toLowerCase()}, ${formatIntoSession(click.timestamp, sessionStart)}`;
  return [
    { url: click.screenshots?.before, title: `Before ${what}` },
    { url: click.screenshots?.after, title: `After ${what}` },
  ].filter((s): s is Shot => safeUrl(s.url) !== null);
}

function errorShots(error: ErrorScreenshots): Shot[] {
  return [
    { url: error.main, title: "Error screenshot" },
    { url: error.after, title: "Error screenshot, after" },
  ].filter((s): s is Shot => safeUrl(s.url) !== null);
}

/** Links expire at `expiresAt`: past it (or unknown and never given), nothing can be shown. */
const expired = (expiresAt: string | null, now: Date) => {
  const at = toDate(expiresAt);
  return at !== null && at.getTime() <= now.getTime();
};

/** Images while their links live; links (with a sentence saying why) when Slack could not load them. */
function shotBlocks(shots: Shot[], expiresAt: string | null, input: ScreenshotsMessageInput): MessageBlock[] {
  if (shots.length === 0) return [];
  if (expired(expiresAt, input.now)) {
    return [
      context(
        `:warning: ${plural(shots.length, "screenshot")}: Decipher's links to them expired ${dateToken(expiresAt)}, so they cannot be shown. ${link(sessionUrl(input.appUrl, input.sessionId), "The session is in Decipher")}.`,
      ),
    ];
  }
  if (input.asLinks) {
    return [section(shots.map((s) => `• ${link(s.url, s.title)}`).join("\n"))];
  }
  return shots.flatMap((s) => image(s.url, s.title, s.title));
}

/**
 * The Screenshots button's answer: the session's screenshots as images, from URLs fetched
 * just now. Alerts cannot keep screenshots alive (the vendor's URLs expire after ~3 h), so
 * evidence outlives them by being fetched again whenever someone asks. A collection's session
 * shows the error screenshot its alert showed first.
 */
export function screenshotsMessage(input: ScreenshotsMessageInput): SlackMessage {
  const { sessionId, session, clicks, appUrl, error } = input;
  const start = session?.createdAt ?? null;
  const fromError = error ? errorShots(error) : [];
  const fromClicks = clicks.data.flatMap((c) => shotsOf(c, start));
  const shown = fromClicks.slice(0, Math.max(0, MAX_IMAGES - fromError.length));
  const total = fromError.length + fromClicks.length;
  const blocks: MessageBlock[] = [
    header(`Screenshots (${total})`),
    context(sessionHeading(sessionId, session, appUrl)),
    ...(input.asLinks
      ? [
          context(
            ":warning: Slack could not load these screenshots as images (their links may have expired or be blocked); here they are as links.",
          ),
        ]
      : []),
    ...(error === null
      ? [
          context(
            "_The collection no longer lists this session, so its error screenshot cannot be fetched again._",
          ),
        ]
      : []),
    ...(fromError.length > 0
      ? [
          // The same image an alert about this session shows; "Show new sessions" opens others too.
          section(
            `*Error screenshot* of this session, from the issue collection${expiryNote(error?.expiresAt ?? null, input.now)}`,
          ),
          ...shotBlocks(fromError, error?.expiresAt ?? null, input),
        ]
      : []),
    ...(fromClicks.length === 0
      ? [context("_No click screenshots in this session._")]
      : [
          section(`*Clicks*${expiryNote(clicks.screenshotsExpiresAt, input.now)}`),
          ...shotBlocks(shown, clicks.screenshotsExpiresAt, input),
        ]),
    ...(fromClicks.length > shown.length
      ? [
          context(
            `…and ${plural(fromClicks.length - shown.length, "more screenshot")}: use *Clicks* for the links`,
          ),
        ]
      : []),
  ];
  return fitMessage({ text: `${plural(total, "screenshot")} of session ${oneLine(sessionId)}`, blocks });
}

/** "Screenshot links valid until …", or nothing when Decipher gave no expiry. */
const expiryNote = (expiresAt: string | null, now: Date) =>
  toDate(expiresAt) ? ` · ${screenshotExpiry(expiresAt, now)}` : "";

/** Whether an answer shows images (Slack downloads them, and refuses the answer if it cannot). */
export const hasImages = (message: SlackMessage) => message.blocks.some((b) => b.type === "image");
