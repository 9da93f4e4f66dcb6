import type { Click, SessionClicks } from "../decipher/types.ts";
import { formatOffset } from "../decipher/units.ts";
import type { SharedSessionCard } from "./button-values.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn, truncatePlain } from "./limits.ts";
import { sessionUrl } from "./links.ts";
import { code, dateToken, link, oneLine, plural, safeUrl, toDate } from "./mrkdwn.ts";
import { sessionHeading } from "./session-card.ts";

export type ClicksMessageInput = {
  sessionId: string;
  /** Whose session and when, for the heading; null when the button carried only the id. */
  session?: SharedSessionCard | null;
  clicks: SessionClicks;
  appUrl: string;
  now: Date;
  /** The session's `createdAt`, to show epoch timestamps as "at 1:23" into the session. */
  sessionStart?: Date | string | null;
};

const MAX_SECTIONS = 40;

/** "links valid until …" (or "expired", or "no screenshots"): the URLs live about 3 hours. */
export function screenshotExpiry(expiresAt: string | null, now: Date): string {
  const date = toDate(expiresAt);
  if (!date) return "No screenshots";
  if (date.getTime() <= now.getTime()) return `:warning: Screenshot links expired ${dateToken(date)}`;
  // "valid until" stays true when read after that moment; "expire" would read "expire yesterday".
  return `Screenshot links valid until ${dateToken(date)}`;
}

function screenshotLinks(click: Click): string {
  const shots = [
    safeUrl(click.screenshots?.before) ? link(click.screenshots?.before, "before") : "",
    safeUrl(click.screenshots?.after) ? link(click.screenshots?.after, "after") : "",
  ].filter(Boolean);
  return shots.length > 0 ? `:frame_with_picture: ${shots.join(" / ")}` : "";
}

/** What people call the element an HTML tag makes; anything else is an "element". */
const TAG_WORDS: Record<string, string> = {
  A: "link",
  BUTTON: "button",
  INPUT: "input field",
  TEXTAREA: "text box",
  SELECT: "dropdown",
  OPTION: "dropdown option",
  IMG: "image",
  SVG: "icon",
  LABEL: "label",
};

/** "rage_click" → "Rage click": the vendor's event name in words. */
export function clickTypeWords(type: string | null | undefined): string {
  const words = oneLine(type ?? "")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : "Click";
}

/** "A" → "link", "DIV" → "element": the clicked tag in words. */
export function clickTagWords(tag: string | null | undefined): string {
  const name = oneLine(tag ?? "")
    .trim()
    .toUpperCase();
  return name ? (TAG_WORDS[name] ?? "element") : "";
}

function clickLine(click: Click, sessionStart: ClicksMessageInput["sessionStart"]): string {
  const target = clickTagWords(click.clickTag);
  const what = [
    clickTypeWords(click.type),
    target ? `on ${target}` : "",
    click.clickText ? `“${truncateMrkdwn(oneLine(click.clickText), 80)}”` : "",
    click.clickCount > 1 ? `×${click.clickCount}` : "",
  ]
    .filter(Boolean)
    .join(" ");
  // Decipher's `navigationTo`: where the click led, said so, not the page it was made on.
  const navigation = click.navigationTo ? `led to ${code(truncatePlain(click.navigationTo, 200))}` : "";
  return [`• ${formatOffset(click.timestamp, sessionStart)}: ${what}`, navigation, screenshotLinks(click)]
    .filter(Boolean)
    .join(" · ");
}

/** The Clicks button's answer: every click with its before/after screenshot links. */
export function clicksMessage(input: ClicksMessageInput): SlackMessage {
  const { sessionId, clicks, appUrl, now, session } = input;
  const sessionStart = input.sessionStart ?? session?.createdAt ?? null;
  const open = link(sessionUrl(appUrl, sessionId), "Open the session in Decipher");
  const list =
    clicks.data.length > 0
      ? packLines(
          clicks.data.map((c) => clickLine(c, sessionStart)),
          MAX_SECTIONS,
          (n) => `_…and ${plural(n, "more click")}: ${open}_`,
        )
      : [section("_No clicks recorded in this session._")];
  return fitMessage({
    text: `${plural(clicks.data.length, "click")} in session ${oneLine(sessionId)}`,
    blocks: [
      header(`Clicks (${clicks.data.length})`),
      context(sessionHeading(sessionId, session, appUrl)),
      context(screenshotExpiry(clicks.screenshotsExpiresAt, now), open),
      ...(clicks.data.length > 0 ? [context("A time like 1:23 is into the session, not of the day.")] : []),
      ...list,
    ],
  });
}
