import { describe, expect, it } from "vitest";
import {
  afterSent,
  localWeek,
  localWeekday,
  nextWeeklyOccurrence,
  parseWeekday,
  weeklySchedule,
} from "../../src/model/weekly-schedule.ts";

const iso = (d: Date) => d.toISOString();

describe("weekly report schedule", () => {
  it("reads days of the week in short or long form, any case", () => {
    expect(["mon", "Monday", "SUN", "thu"].map(parseWeekday)).toEqual(["mon", "mon", "sun", "thu"]);
    for (const bad of ["", "mo", "funday", "7"]) expect(parseWeekday(bad)).toBeNull();
  });

  it("numbers weeks like ISO 8601, in the zone's local dates", () => {
    expect(localWeek(new Date("2026-01-01T12:00:00Z"), "UTC")).toBe("2026-W01");
    expect(localWeek(new Date("2027-01-01T12:00:00Z"), "UTC")).toBe("2026-W53");
    expect(localWeek(new Date("2024-12-30T12:00:00Z"), "UTC")).toBe("2025-W01");
    // Sunday 23:30 in UTC is already Monday in Tokyo: another week.
    const sundayNight = new Date("2026-03-08T23:30:00Z");
    expect(localWeek(sundayNight, "UTC")).toBe("2026-W10");
    expect(localWeek(sundayNight, "Asia/Tokyo")).toBe("2026-W11");
    expect(localWeekday(sundayNight, "Asia/Tokyo")).toBe("mon");
  });

  it("is due at the next such day and time in the zone, strictly after now", () => {
    // 2026-03-04 is a Wednesday.
    const wednesday = new Date("2026-03-04T10:00:00Z");
    expect(iso(nextWeeklyOccurrence("mon", "09:00", "Europe/Berlin", wednesday))).toBe(
      "2026-03-09T08:00:00.000Z",
    );
    expect(iso(nextWeeklyOccurrence("wed", "11:30", "Europe/Berlin", wednesday))).toBe(
      "2026-03-04T10:30:00.000Z",
    );
    // Exactly now is not "after now": never at once.
    expect(iso(nextWeeklyOccurrence("wed", "11:00", "Europe/Berlin", wednesday))).toBe(
      "2026-03-11T10:00:00.000Z",
    );
  });

  it("keeps its local time across daylight-saving changes, and every week gets one", () => {
    // Berlin moves to UTC+2 on Sunday 29 March 2026 and back on Sunday 25 October 2026.
    const before = new Date("2026-03-27T12:00:00Z");
    expect(iso(nextWeeklyOccurrence("mon", "09:00", "Europe/Berlin", before))).toBe(
      "2026-03-30T07:00:00.000Z",
    );
    // 02:30 does not exist that Sunday: the report goes just after the gap, that same day.
    const gap = nextWeeklyOccurrence("sun", "02:30", "Europe/Berlin", before);
    expect(localWeekday(gap, "Europe/Berlin")).toBe("sun");
    expect(gap.getTime()).toBeGreaterThanOrEqual(Date.parse("2026-03-29T01:00:00Z"));
    expect(gap.getTime()).toBeLessThanOrEqual(Date.parse("2026-03-29T01:30:00Z"));
    // 02:30 happens twice on 25 October: the first one, once.
    const twice = nextWeeklyOccurrence("sun", "02:30", "Europe/Berlin", new Date("2026-10-23T12:00:00Z"));
    expect(iso(twice)).toBe("2026-10-25T00:30:00.000Z");
    const following = afterSent(
      {
        day: "sun",
        time: "02:30",
        zone: "Europe/Berlin",
        nextDueAt: iso(twice),
        lastSentAt: null,
        lastSentWeek: null,
      },
      new Date(twice.getTime() + 60_000),
    );
    expect(following.nextDueAt).toBe("2026-11-01T01:30:00.000Z");
  });

  it("after a late report, the next is due in the following week, on its day", () => {
    const schedule = weeklySchedule(
      { day: "mon", time: "09:00", zone: "UTC" },
      new Date("2026-03-04T10:00:00Z"),
      null,
    );
    expect(schedule.nextDueAt).toBe("2026-03-09T09:00:00.000Z");
    // The cron was down until Tuesday: the report goes then, and counts for Monday's week.
    const sent = afterSent(schedule, new Date("2026-03-10T14:00:00Z"));
    expect(sent.lastSentWeek).toBe("2026-W11");
    expect(sent.nextDueAt).toBe("2026-03-16T09:00:00.000Z");
  });

  it("moved to a later day of a week that already had its report, waits for the next week", () => {
    const sent = afterSent(
      weeklySchedule({ day: "mon", time: "09:00", zone: "UTC" }, new Date("2026-03-04T10:00:00Z"), null),
      new Date("2026-03-09T09:00:30Z"),
    );
    const moved = weeklySchedule(
      { day: "fri", time: "16:00", zone: "UTC" },
      new Date("2026-03-09T12:00:00Z"),
      sent,
    );
    expect(moved.nextDueAt).toBe("2026-03-20T16:00:00.000Z");
    // A week without a report yet gets it on the new day.
    const fresh = weeklySchedule(
      { day: "fri", time: "16:00", zone: "UTC" },
      new Date("2026-03-09T12:00:00Z"),
      null,
    );
    expect(fresh.nextDueAt).toBe("2026-03-13T16:00:00.000Z");
  });
});
