import { describe, expect, it } from "vitest";
import { isValidZone, localDate, nextOccurrence, parseClockTime } from "../../src/util/local-time.ts";

describe("digest schedule", () => {
  it("reads HH:MM and rejects anything else", () => {
    expect(parseClockTime("09:00")).toEqual({ hour: 9, minute: 0 });
    expect(parseClockTime("7:05")).toEqual({ hour: 7, minute: 5 });
    for (const bad of ["24:00", "12:60", "9", "noon", "", "12:00:00"]) expect(parseClockTime(bad)).toBeNull();
  });

  it("knows IANA zones", () => {
    expect(isValidZone("Europe/Berlin")).toBe(true);
    expect(isValidZone("UTC")).toBe(true);
    expect(isValidZone("Mars/Olympus")).toBe(false);
  });

  it("is due later today when the time has not passed yet, else tomorrow", () => {
    const morning = new Date("2026-11-21T08:00:00Z");
    expect(nextOccurrence("09:00", "UTC", morning).toISOString()).toBe("2026-11-21T09:00:00.000Z");
    expect(nextOccurrence("07:59", "UTC", morning).toISOString()).toBe("2026-11-22T07:59:00.000Z");
    expect(nextOccurrence("08:00", "UTC", morning).toISOString()).toBe("2026-11-22T08:00:00.000Z");
  });

  it("follows the zone's offset, including across a DST change", () => {
    // Berlin is UTC+1 in November, UTC+2 from 29 March 2026.
    expect(nextOccurrence("09:00", "Europe/Berlin", new Date("2026-11-21T12:00:00Z")).toISOString()).toBe(
      "2026-11-22T08:00:00.000Z",
    );
    expect(nextOccurrence("09:00", "Europe/Berlin", new Date("2026-03-28T12:00:00Z")).toISOString()).toBe(
      "2026-03-29T07:00:00.000Z",
    );
    expect(nextOccurrence("09:00", "America/New_York", new Date("2026-11-21T15:00:00Z")).toISOString()).toBe(
      "2026-11-22T14:00:00.000Z",
    );
  });

  it("moves a time inside a DST gap to just after it", () => {
    const due = nextOccurrence("02:30", "Europe/Berlin", new Date("2026-03-28T12:00:00Z"));
    expect(due.getTime()).toBeGreaterThan(new Date("2026-03-29T00:59:00Z").getTime());
    expect(due.getTime()).toBeLessThanOrEqual(new Date("2026-03-29T01:30:00Z").getTime());
  });

  it("moves a time in the skipped hour to the same distance after it, in every zone", () => {
    // New York springs forward at 02:00 on 8 March 2026: 02:30 does not exist that day.
    expect(nextOccurrence("02:30", "America/New_York", new Date("2026-03-07T12:00:00Z")).toISOString()).toBe(
      "2026-03-08T07:30:00.000Z",
    );
  });

  it("is due once per local date all year, even where clocks change at midnight", () => {
    for (const zone of ["America/Santiago", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham"]) {
      for (const time of ["00:00", "00:30", "02:30", "23:59"]) {
        let at = new Date("2025-12-31T12:00:00Z");
        let previous = "";
        for (let day = 0; day < 400; day++) {
          at = nextOccurrence(time, zone, at);
          const date = localDate(at, zone);
          if (previous)
            expect((Date.parse(date) - Date.parse(previous)) / 86_400_000, `${zone} ${time} ${date}`).toBe(1);
          previous = date;
        }
      }
    }
  });

  it("names the local date", () => {
    expect(localDate(new Date("2026-11-21T23:30:00Z"), "Asia/Tokyo")).toBe("2026-11-22");
    expect(localDate(new Date("2026-11-21T23:30:00Z"), "UTC")).toBe("2026-11-21");
  });
});
