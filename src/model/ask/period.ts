import { localDayStart, localWeekday } from "../../util/local-time.ts";
import type { AskWord } from "./words.ts";

/** A period asked in words, resolved in a zone: from `since` to `until` (null: to now). */
export type AskPeriod = { words: string; since: Date; until: Date | null };

const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const COUNTS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
};
const HOUR_MS = 60 * 60 * 1000;
const UNIT_MS: Record<string, number> = { hour: HOUR_MS, day: 24 * HOUR_MS, week: 7 * 24 * HOUR_MS };

/** The start of this local week (a Monday) in `zone`, `weeksBack` weeks before. */
function weekStart(now: Date, zone: string, weeksBack: number): Date {
  return localDayStart(now, zone, ((localWeekday(now, zone) + 6) % 7) + 7 * weeksBack);
}

/** `last 3 days`, `past 24 hours`, `last week`, `24h`, `7d`: the period and how many words it took. */
function lastPeriod(words: readonly AskWord[], i: number, now: Date, zone: string): AskPeriod | null {
  const w = words[i];
  const compact = /^(\d{1,3})(h|d)$/.exec(w?.typed ?? "");
  if (compact) {
    const n = Number(compact[1]);
    const unit = compact[2] === "h" ? "hour" : "day";
    return {
      words: `the last ${n} ${unit}s`,
      since: new Date(now.getTime() - n * (UNIT_MS[unit] ?? 0)),
      until: null,
    };
  }
  if (w?.key !== "last") return null;
  const next = words[i + 1];
  if (next?.key === "week")
    return { words: "last week", since: weekStart(now, zone, 1), until: weekStart(now, zone, 0) };
  const count = next
    ? (COUNTS[next.typed] ?? (/^\d{1,3}$/.test(next.typed) ? Number(next.typed) : null))
    : null;
  const unit = words[i + 2]?.key;
  if (count === null || count < 1 || !unit || !UNIT_MS[unit]) return null;
  return {
    words: `the last ${count} ${unit}${count === 1 ? "" : "s"}`,
    since: new Date(now.getTime() - count * (UNIT_MS[unit] ?? 0)),
    until: null,
  };
}

/** `since monday`, `since yesterday`: from the start of that local day. */
function sincePeriod(words: readonly AskWord[], i: number, now: Date, zone: string): AskPeriod | null {
  if (words[i]?.key !== "since") return null;
  const key = words[i + 1]?.key ?? "";
  if (key === "yesterday")
    return { words: "since yesterday", since: localDayStart(now, zone, 1), until: null };
  const day = WEEKDAYS.indexOf(key);
  if (day < 0) return null;
  const back = (localWeekday(now, zone) - day + 7) % 7;
  return {
    words: `since ${key[0]?.toUpperCase()}${key.slice(1)}`,
    since: localDayStart(now, zone, back),
    until: null,
  };
}

/** Today in `zone`, from its local midnight: what "what failed?" asks about when no period is named. */
export const todayIn = (now: Date, zone: string): AskPeriod => ({
  words: "today",
  since: localDayStart(now, zone),
  until: null,
});

function onePeriod(words: readonly AskWord[], i: number, now: Date, zone: string): AskPeriod | null {
  const key = words[i]?.key;
  if (key === "today") return todayIn(now, zone);
  if (key === "yesterday")
    return { words: "yesterday", since: localDayStart(now, zone, 1), until: localDayStart(now, zone) };
  if (key === "week" && words[i - 1]?.typed === "this")
    return { words: "this week", since: weekStart(now, zone, 0), until: null };
  return sincePeriod(words, i, now, zone) ?? lastPeriod(words, i, now, zone);
}

/** The first period the words name, in `zone`; null when they name none. */
export function readPeriod(words: readonly AskWord[], now: Date, zone: string): AskPeriod | null {
  for (let i = 0; i < words.length; i++) {
    const period = onePeriod(words, i, now, zone);
    if (period) return period;
  }
  return null;
}
