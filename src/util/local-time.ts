/** Wall-clock arithmetic for digests, in IANA zones, without a date library. */

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

export function parseClockTime(text: string): { hour: number; minute: number } | null {
  const match = TIME.exec(text.trim());
  if (!match) return null;
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

export function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

type LocalParts = { year: number; month: number; day: number; hour: number; minute: number; second: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

export function localParts(instant: Date, zone: string): LocalParts {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** Local date `YYYY-MM-DD` of an instant in a zone. */
export function localDate(instant: Date, zone: string): string {
  const p = localParts(instant, zone);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

function zoneOffsetMs(instant: Date, zone: string): number {
  const p = localParts(instant, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** Further than any zone's offset from UTC (+14 h), so the samples fall on each side of a change. */
const SAMPLE_MS = 26 * 60 * 60 * 1000;

/**
 * The instant a local wall-clock time happens. Around a change of offset, the offsets a day
 * and a bit before and after are the two candidates: when both name that wall time (the hour
 * that repeats), the earlier wins; when neither does (the hour that is skipped), the one that
 * stays on the same local date, preferring the moment the same distance after the gap.
 */
function fromLocal(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = zoneOffsetMs(new Date(wall - SAMPLE_MS), zone);
  const after = zoneOffsetMs(new Date(wall + SAMPLE_MS), zone);
  const parts = (instant: number) => localParts(new Date(instant), zone);
  const sameDate = (instant: number) => {
    const p = parts(instant);
    return p.year === year && p.month === month && p.day === day;
  };
  const names = (instant: number) => {
    const p = parts(instant);
    return sameDate(instant) && p.hour === hour && p.minute === minute;
  };
  const candidates = [wall - before, wall - after];
  const matching = candidates.filter(names).sort((a, b) => a - b);
  if (matching[0] !== undefined) return new Date(matching[0]);
  // In the skipped hour: just after the gap, unless that is already the next local date (a
  // gap at midnight), then just before it, so each local date still gets its one digest.
  return new Date(candidates.find(sameDate) ?? wall - before);
}

/** First occurrence of `HH:MM` in `zone` strictly after `after`. */
export function nextOccurrence(time: string, zone: string, after: Date): Date {
  const clock = parseClockTime(time);
  if (!clock) throw new RangeError(`not a time of day: ${time}`);
  const today = localParts(after, zone);
  for (let dayOffset = 0; dayOffset <= 2; dayOffset++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + dayOffset));
    const candidate = fromLocal(
      date.getUTCFullYear(),
      date.getUTCMonth() + 1,
      date.getUTCDate(),
      clock.hour,
      clock.minute,
      zone,
    );
    if (candidate.getTime() > after.getTime()) return candidate;
  }
  throw new RangeError(`no occurrence of ${time} in ${zone} after ${after.toISOString()}`);
}

/** The instant a local day began in `zone`, `daysBack` days before the day of `instant`. */
export function localDayStart(instant: Date, zone: string, daysBack = 0): Date {
  const today = localParts(instant, zone);
  const day = new Date(Date.UTC(today.year, today.month - 1, today.day - daysBack));
  return fromLocal(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), 0, 0, zone);
}

/** The local weekday of `instant` in `zone`: 0 Sunday … 6 Saturday. */
export function localWeekday(instant: Date, zone: string): number {
  const p = localParts(instant, zone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay();
}
