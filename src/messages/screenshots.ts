import type { Click, SessionClicks } from "../vendor/types.ts";
import { formatOffset } from "../vendor/units.ts";
import type { SharedSessionCard } from "./action-ids.ts";
import { screenshotExpiry } from "./clicks.ts";
import { context, header, image } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { oneLine, plural, safeUrl } from "./mrkdwn.ts";
import { sessionHeading } from "./session-card.ts";

export type ScreenshotsMessageInput = {
  sessionId: string;
  session?: SharedSessionCard | null;
  /** Fetched when the person asked: its URLs are fresh for about 3 hours from now. */
  clicks: SessionClicks;
  appUrl: string;
  now: Date;
};

/** Images per answer: each is a block, and a long wall of screenshots helps nobody. */
const MAX_IMAGES = 12;

function shotsOf(click: Click, sessionStart: string | null): { url: string; title: string }[] {
  const what = `${oneLine(click.type) || "click"} ${formatOffset(click.timestamp, sessionStart)}`;
  return [
    { url: click.screenshots?.before, title: `Before ${what}` },
    { url: click.screenshots?.after, title: `After ${what}` },
  ].filter((s): s is { url: string; title: string } => safeUrl(s.url) !== null);
}

/**
 * The Screenshots button's answer: the session's screenshots as images, from URLs fetched
 * just now. Alerts cannot keep screenshots alive (the vendor's URLs expire after ~3 h), so
 * evidence outlives them by being fetched again whenever someone asks.
 */
export function screenshotsMessage(input: ScreenshotsMessageInput): SlackMessage {
  const { sessionId, session, clicks, appUrl, now } = input;
  const start = session?.createdAt ?? null;
  const all = clicks.data.flatMap((c) => shotsOf(c, start));
  const shown = all.slice(0, MAX_IMAGES);
  const blocks: MessageBlock[] = [
    header(`Screenshots (${all.length})`),
    context(sessionHeading(sessionId, session, appUrl)),
    ...(all.length === 0
      ? [context("_This session has no screenshots._")]
      : [context(screenshotExpiry(clicks.screenshotsExpiresAt, now))]),
    ...shown.flatMap((s) => image(s.url, s.title, s.title)),
    ...(all.length > shown.length
      ? [context(`…and ${plural(all.length - shown.length, "more screenshot")}: use *Clicks* for the links`)]
      : []),
  ];
  return fitMessage({ text: `${plural(all.length, "screenshot")} of session ${oneLine(sessionId)}`, blocks });
}
