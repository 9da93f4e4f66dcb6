import { safeUrl, truncateMrkdwn } from "./limits.ts";

export { safeUrl };

/**
 * mrkdwn helpers. Convention: every helper takes *raw* text (vendor data, user input) and
 * returns safe mrkdwn, so escaping happens in exactly one place.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone surrogates (invalid UTF-16, which JSON encoders choke on) with U+FFFD. */
export function wellFormed(raw: string): string {
  return raw.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * Escapes the three characters Slack treats as control characters in mrkdwn. Vendor text
 * like `<!channel>` or `<https://evil|click>` thus renders literally instead of pinging or
 * linking.
 */
export function escapeMrkdwn(raw: string | null | undefined): string {
  return wellFormed(raw ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

/** Escaped text on one line: bold, code and link labels do not survive a line break. */
export function oneLine(raw: string | null | undefined): string {
  return escapeMrkdwn(raw).replace(/\s+/g, " ").trim();
}

/** Text on one line, not escaped: for what Slack shows literally (table cells, chart labels, buttons). */
export function plainLine(raw: string | null | undefined): string {
  return wellFormed(raw ?? "")
    .replace(/\s+/g, " ")
    .trim();
}

const MAX_LABEL = 300;

/**
 * `<url|label>` with the label escaped; when the URL is not a safe http(s) URL, just the
 * label, so a bad vendor URL costs a link, never the message.
 */
export function link(url: string | null | undefined, label: string | null | undefined): string {
  const href = safeUrl(url);
  const text = truncateMrkdwn(oneLine(label), MAX_LABEL);
  if (!href) return text;
  // `&` is escaped inside the URL too: Slack decodes entities before it parses the link.
  return `<${href.replace(/&/g, "&amp;")}|${text || escapeMrkdwn(new URL(href).host)}>`;
}

/** `*text*`, or "" for blank text (a lone `**` would show literally). */
export function bold(raw: string | null | undefined): string {
  const text = oneLine(raw);
  return text ? `*${text}*` : "";
}

/** `_text_`, or "" for blank text. */
export function italic(raw: string | null | undefined): string {
  const text = oneLine(raw);
  return text ? `_${text}_` : "";
}

/** `` `text` `` with inner backticks replaced (mrkdwn has no way to escape them). */
export function code(raw: string | null | undefined): string {
  const text = oneLine(raw).replace(/`/g, "ˋ");
  return text ? `\`${text}\`` : "";
}

/** A Date from a Date, an ISO string or epoch milliseconds; null when invalid. */
export function toDate(at: Date | string | number | null | undefined): Date | null {
  if (at === null || at === undefined || at === "") return null;
  const date = at instanceof Date ? at : new Date(at);
  return Number.isFinite(date.getTime()) ? date : null;
}

/** "2026-02-16 05:00 UTC": what clients without date-token support show. */
export function isoUtc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export const DATE_FORMAT_PRETTY = "{date_short_pretty} at {time}";
/**
 * A time ahead, as a reply names it ("next Nov 28 at 1:20 PM"): a date, since Slack renders
 * "today" relative to the reader, and a reply read after that time would say "next yesterday".
 */
export const DATE_FORMAT_AHEAD = "{date_short} at {time}";

/**
 * A Slack date token, shown in each reader's own time zone:
 * `<!date^EPOCH^{date_short_pretty} at {time}|2026-02-16 05:00 UTC>`. An invalid or
 * out-of-range date gives "unknown time" (or the plain ISO text) instead of a broken token.
 */
export function dateToken(
  at: Date | string | number | null | undefined,
  format = DATE_FORMAT_PRETTY,
): string {
  const date = toDate(at);
  if (!date) return "unknown time";
  const epoch = Math.floor(date.getTime() / 1000);
  if (epoch < 0 || date.getUTCFullYear() > 9999) return escapeMrkdwn(date.toISOString());
  return `<!date^${epoch}^${format}|${isoUtc(date)}>`;
}

/** "🇩🇪" from "de"/"DE" via regional indicators; "" when the code is not two letters. */
export function flag(countryCode: string | null | undefined): string {
  if (!countryCode || !/^[A-Za-z]{2}$/.test(countryCode)) return "";
  return String.fromCodePoint(...[...countryCode.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** "🇩🇪 DE", the escaped raw code when it is not a country code, or "". */
export function countryLabel(countryCode: string | null | undefined): string {
  const emoji = flag(countryCode);
  return emoji ? `${emoji} ${countryCode?.toUpperCase()}` : oneLine(countryCode);
}

/** `<@U123>` for a well-formed Slack user id, otherwise "someone" (never raw input). */
export function mention(userId: string | null | undefined): string {
  return userId && /^[UW][A-Z0-9]{2,}$/.test(userId) ? `<@${userId}>` : "someone";
}

/** "1 session", "3 sessions". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
