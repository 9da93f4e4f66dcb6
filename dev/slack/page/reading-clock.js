// The page's reading clock: `?at=+1h` (or +30m, +1d…) renders everything on the page that
// depends on "now" — Slack date tokens, message times — as it will read at that moment, so a
// person (or a screenshot) can check that a message is still true an hour or a day after it
// was posted, without moving the computer's clock. Only the page reads ahead: the bot, the
// emulator and the stand-in keep real time.
import { formatSlackDate } from "./mrkdwn.js";

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const UNIT_WORD = { m: "minute", h: "hour", d: "day" };
/** Further ahead than this, no screenshot URL, schedule or streak would be worth reading. */
const MAX_AHEAD_MS = 30 * UNIT_MS.d;

/** The choices the page offers; any `+<n>m|h|d` works in the URL. */
export const READING_CHOICES = [
  { at: "", label: "now" },
  { at: "+1h", label: "+1 hour" },
  { at: "+1d", label: "+1 day" },
];

/**
 * `?at=` → how far ahead the page reads. No value or "now" is real time; anything else that
 * is not `+<n>m`, `+<n>h` or `+<n>d` (at most 30 days) reads real time and says why.
 * @param {string | null | undefined} value
 * @returns {{ at: string, offsetMs: number, label: string, error?: string }}
 */
export function parseReadingClock(value) {
  const raw = String(value ?? "").trim();
  if (raw === "" || raw === "now") return { at: "", offsetMs: 0, label: "now" };
  const m = /^\+?(\d{1,4})([mhd])$/.exec(raw);
  const unit = /** @type {"m" | "h" | "d" | undefined} */ (m?.[2]);
  const n = Number(m?.[1]);
  if (!unit || n === 0 || n * UNIT_MS[unit] > MAX_AHEAD_MS) {
    return {
      at: "",
      offsetMs: 0,
      label: "now",
      error: `"?at=${raw}" is not a reading time: use +1h, +1d, +30m (at most 30 days ahead) or now. Showing real time.`,
    };
  }
  return {
    at: `+${n}${unit}`,
    offsetMs: n * UNIT_MS[unit],
    label: `+${n} ${UNIT_WORD[unit]}${n === 1 ? "" : "s"}`,
  };
}

/**
 * The page's address reading at `at` ("" for real time): the other parameters (`ws`) and
 * the channel (the hash) stay.
 * @param {string} href @param {string} at
 */
export function readingHref(href, at) {
  const url = new URL(href);
  if (at) url.searchParams.set("at", at);
  else url.searchParams.delete("at");
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * A message's time as Slack lists it, read at `nowMs`: the time alone on the day it was
 * posted, "yesterday at 9:05 AM" or "Nov 24, 2026 at 9:05 AM" after.
 * @param {number} seconds @param {number} nowMs
 */
export function messageTime(seconds, nowMs) {
  const sameDay = formatSlackDate(seconds, "{date_short_pretty}", nowMs) === "today";
  return formatSlackDate(seconds, sameDay ? "{time}" : "{date_short_pretty} at {time}", nowMs);
}

/**
 * Re-reads at `nowMs` every time already on the page, as Slack does while a message stays on
 * screen: a node with `data-time` (seconds) shows a Slack date token in its `data-format`, or
 * without one a message time. Only text that now reads differently is written — no message
 * is rebuilt, so scroll, open threads and menus stay. Returns how many changed.
 * @param {Iterable<{ getAttribute(name: string): string | null, textContent: string | null }>} nodes
 * @param {number} nowMs
 */
export function retime(nodes, nowMs) {
  let changed = 0;
  for (const node of nodes) {
    const seconds = Number(node.getAttribute("data-time") ?? Number.NaN);
    if (!Number.isFinite(seconds)) continue;
    const format = node.getAttribute("data-format");
    const text = format === null ? messageTime(seconds, nowMs) : formatSlackDate(seconds, format, nowMs);
    if (node.textContent === text) continue;
    node.textContent = text;
    changed++;
  }
  return changed;
}

/**
 * The sentence the page shows while it reads ahead.
 * @param {{ offsetMs: number, label: string }} clock @param {number} realNowMs
 */
export function readingNote(clock, realNowMs) {
  const then = new Date(realNowMs + clock.offsetMs);
  const when = then.toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
  return `Reading clock ${clock.label}: dates and times on this page read as they will on ${when}. Only the page reads ahead — the bot and the emulator keep real time, so nothing is posted for that moment.`;
}
