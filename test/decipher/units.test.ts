import { describe, expect, it } from "vitest";
import {
  classifyInstant,
  formatDurationMs,
  formatOffset,
  formatSessionDuration,
  inferDurationUnit,
  sessionDurationSeconds,
} from "../../src/decipher/units.ts";

describe("session duration: seconds up to a day, milliseconds above", () => {
  it.each([
    [723, "12 m 03 s"],
    [723_000, "12 m 03 s"],
    [45, "45 s"],
    [3_720, "1 h 02 m"],
    [86_400, "1 d 0 h"],
    [86_401, "1 m 26 s"],
    [0, "0 s"],
  ])("%s reads as %s", (value, expected) => {
    expect(formatSessionDuration(value)).toBe(expected);
  });

  it.each([null, undefined, -5, Number.NaN, Number.POSITIVE_INFINITY])("%s is unknown", (value) => {
    expect(formatSessionDuration(value)).toBe("unknown");
    expect(sessionDurationSeconds(value)).toBeNull();
  });
});

describe("instants: epoch milliseconds above 1e11, epoch seconds above 1e9, else seconds into the session", () => {
  it("classifies both plausible encodings", () => {
    expect(classifyInstant(83)).toEqual({ kind: "offset", seconds: 83 });
    expect(classifyInstant(1_771_232_483_000)).toEqual({ kind: "epoch", ms: 1_771_232_483_000 });
    expect(classifyInstant(1_771_232_483)).toEqual({ kind: "epoch", ms: 1_771_232_483_000 });
    expect(classifyInstant(-1)).toEqual({ kind: "unknown" });
    expect(classifyInstant(Number.NaN)).toEqual({ kind: "unknown" });
  });

  it("shows seconds into the session as a position", () => {
    expect(formatOffset(83)).toBe("at 1:23");
    expect(formatOffset(3_723)).toBe("at 1:02:03");
  });

  it("shows an epoch value as a position when the session start is known", () => {
    expect(formatOffset(1_771_232_483_000, "2026-02-16T09:00:00.000Z")).toBe("at 1:23");
  });

  it("shows an epoch value as a UTC clock time otherwise", () => {
    expect(formatOffset(1_771_232_483_000)).toBe("at 09:01:23 UTC");
    expect(formatOffset(1_771_232_483_000, "2020-01-01T00:00:00Z")).toBe("at 09:01:23 UTC");
  });

  it("says so when the value is unusable", () => {
    expect(formatOffset(null)).toBe("at an unknown time");
    expect(formatOffset(-3)).toBe("at an unknown time");
    expect(formatOffset(1e300)).toBe("at an unknown time");
  });
});

describe("test-run durations in milliseconds", () => {
  it.each([
    [125_000, "2 m 05 s"],
    [850, "850 ms"],
    [4_000, "4 s"],
    [3_600_000, "1 h 00 m"],
  ])("%s ms reads as %s", (ms, expected) => {
    expect(formatDurationMs(ms)).toBe(expected);
  });

  it.each([null, -1, Number.NaN])("%s is a dash", (ms) => {
    expect(formatDurationMs(ms)).toBe("—");
  });
});

describe("a page of sessions settles the duration unit", () => {
  it("reads every duration as milliseconds when one of them can only be", () => {
    const unit = inferDurationUnit([60_000, 250_000, null]);
    expect(unit).toBe("ms");
    expect(formatSessionDuration(60_000, unit)).toBe("1 m 00 s");
    // Alone, 60 000 reads as seconds (16 h 40 m): the page is what tells.
    expect(formatSessionDuration(60_000)).toBe("16 h 40 m");
  });

  it("leaves the unit open when no duration decides it", () => {
    expect(inferDurationUnit([12, 600, null, undefined])).toBeUndefined();
    expect(formatSessionDuration(600, inferDurationUnit([600]))).toBe("10 m 00 s");
  });
});
