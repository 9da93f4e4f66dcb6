import type { TimelineTag } from "../decipher/types.ts";
import * as ACTION_IDS from "./action-ids.ts";
import type { SharedSessionCard } from "./button-values.ts";
import { encodeSessionIdValue } from "./button-values.ts";
import { screenshotExpiry } from "./clicks.ts";
import { actions, button, context, section } from "./elements.ts";
import { code, dateToken, link } from "./mrkdwn.ts";
import { overviewText } from "./overview.ts";
import { sessionFacts, sessionUser } from "./session-card.ts";
import { imageBlock, UNFURL_LINK_ACTION_ID, type UnfurlBlock, unfurlBlocks } from "./unfurl-blocks.ts";

/** What a session unfurl shows, as cached (JSON) for 60 s in the team's SlackEventGate. */
export type SessionLookup = {
  /** The listing's summary (who, when, duration, browser, device, country); null if not found. */
  session: SharedSessionCard | null;
  /** Kept short: the unfurl shows a cut overview, and the cache row stays small. */
  overview: string | null;
  tags: TimelineTag["tag"][];
  hasTimeline: boolean;
  screenshot: { url: string; alt: string; expiresAt: string | null } | null;
};

export type SessionUnfurlInput = {
  /** The link as shared: the Watch replay button opens exactly it. */
  url: string;
  sessionId: string;
  lookup: SessionLookup;
  now: Date;
};

/** An unfurl is a preview: a few lines of the overview, the rest is one click away. */
const OVERVIEW_MAX = 600;
const MAX_TAGS = 6;

/**
 * A shared session link, explained: who and when, the facts line, the AI overview (cut) with
 * its tags, the first screenshot, and Watch replay / Timeline / Clicks.
 */
export function sessionUnfurl({ url, sessionId, lookup, now }: SessionUnfurlInput): UnfurlBlock[] {
  const { session } = lookup;
  const title = session
    ? `*${link(url, sessionUser(session))}* · ${dateToken(session.createdAt)}\n${sessionFacts(session)}`
    : `*${link(url, "Decipher session")}*`;
  const tags = lookup.tags.slice(0, MAX_TAGS).map(code).filter(Boolean);
  const overview = lookup.overview
    ? [
        overviewText(lookup.overview, OVERVIEW_MAX, { url, label: "the whole overview in Decipher" }),
        tags.length > 0 ? `:label: ${tags.join(" ")}` : "",
      ]
        .filter(Boolean)
        .join("\n")
    : lookup.hasTimeline
      ? "_AI timeline not available when this card was made._"
      : "_No AI timeline for this session._";
  const idValue = encodeSessionIdValue(sessionId);
  const image = lookup.screenshot
    ? imageBlock(lookup.screenshot.url, lookup.screenshot.alt, lookup.screenshot.alt)
    : null;
  return unfurlBlocks(
    [
      section(title),
      section(overview),
      ...(image && lookup.screenshot ? [context(screenshotExpiry(lookup.screenshot.expiresAt, now))] : []),
      ...actions(
        button({ text: "Watch replay", actionId: UNFURL_LINK_ACTION_ID, url, style: "primary" }),
        lookup.hasTimeline && idValue
          ? button({ text: "Timeline", actionId: ACTION_IDS.sessionTimeline, value: idValue })
          : null,
        idValue ? button({ text: "Clicks", actionId: ACTION_IDS.sessionClicks, value: idValue }) : null,
      ),
    ],
    image,
    2,
  );
}
