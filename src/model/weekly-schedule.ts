import { localParts, nextOccurrence } from "../util/local-time.ts";

/**
 * A channel's weekly report (`/decipher weekly mon 09:00 Europe/Berlin`): due at the first
 * such local time after it was set, then once per local week. Pure wall-clock arithmetic on
 * top of the daily digest's (src/util/local-time.ts), so daylight-saving changes behave the same.
 */

export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};

export type WeeklySchedule = {
  day: Weekday;
  /** Local wall-clock time, `HH:MM`. */
  time: string;
  /** IANA zone. */
  zone: string;
  /** The next instant a report is owed (ISO). */
  nextDueAt: string;
  lastSentAt: string | null;
  /** The local ISO week (`2026-W10`) of the last report: a week never gets a second one. */
  lastSentWeek: string | null;
};

/** `mon`, `Monday`, `MON` … → `mon`; anything else → null. */
export function parseWeekday(raw: string): Weekday | null {
  const text = raw.trim().toLowerCase();
  return WEEKDAYS.find((d) => text === d || text === WEEKDAY_NAMES[d].toLowerCase()) ?? null;
}

/** The local date of an instant as a UTC midnight, for calendar arithmetic. */
function localDay(instant: Date, zone: string): Date {
  const p = localParts(instant, zone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day));
}

export function localWeekday(instant: Date, zone: string): Weekday {
  return WEEKDAYS[(localDay(instant, zone).getUTCDay() + 6) % 7] as Weekday;
}

/** ISO 8601 week of the local date, e.g. `2026-W10` (weeks start on Monday). */
export function localWeek(instant: Date, zone: string): string {
  const day = localDay(instant, zone);
  const mondayBased = (day.getUTCDay() + 6) % 7;
  // The week belongs to the year of its Thursday.
  const thursday = new Date(day.getTime() + (3 - mondayBased) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/**
 * The first `day` at `time` in `zone` strictly after `after`, skipping the local week
 * `skipWeek` (the one a report already went out in, when the schedule moved within it).
 */
export function nextWeeklyOccurrence(
  day: Weekday,
  time: string,
  zone: string,
  after: Date,
  skipWeek: string | null = null,
): Date {
  let candidate = nextOccurrence(time, zone, after);
  // Each step is the next local date's occurrence: two weeks of them always hold one that fits.
  for (let i = 0; i < 15; i++) {
    if (localWeekday(candidate, zone) === day && localWeek(candidate, zone) !== skipWeek) return candidate;
    candidate = nextOccurrence(time, zone, candidate);
  }
  throw new RangeError(`no ${day} ${time} in ${zone} after ${after.toISOString()}`);
}

/** A new or changed schedule: due at the next such time, never at once, never twice a week. */
export function weeklySchedule(
  when: { day: Weekday; time: string; zone: string },
  at: Date,
  previous: WeeklySchedule | null,
): WeeklySchedule {
  const lastSentWeek = previous?.lastSentWeek ?? null;
  return {
    ...when,
    nextDueAt: nextWeeklyOccurrence(when.day, when.time, when.zone, at, lastSentWeek).toISOString(),
    lastSentAt: previous?.lastSentAt ?? null,
    lastSentWeek,
  };
}

/**
 * After a report went out at `now`: the report belongs to the week it was due in (like a
 * daily digest belongs to its date, however late a missed cron sent it), and the next one is
 * due in a later week.
 */
export function afterSent(schedule: WeeklySchedule, now: Date): WeeklySchedule {
  const week = localWeek(new Date(schedule.nextDueAt), schedule.zone);
  return {
    ...schedule,
    lastSentAt: now.toISOString(),
    lastSentWeek: week,
    nextDueAt: nextWeeklyOccurrence(schedule.day, schedule.time, schedule.zone, now, week).toISOString(),
  };
}
