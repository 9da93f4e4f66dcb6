import { describe, expect, it } from "vitest";
import { isOutage, outageStillOpen } from "../../src/model/noise-rules.ts";
import * as OUTAGE from "../../src/model/outage-thresholds.ts";

const AT = "2026-11-20T10:00:00.000Z";
const later = (ms: number) => new Date(Date.parse(AT) + ms);

describe("an outage", () => {
  it("is three tests failing together, or 80 % of the channel's tests and at least two", () => {
    expect(isOutage(3, 20)).toBe(true);
    expect(isOutage(2, 2)).toBe(true);
    expect(isOutage(2, 3)).toBe(false);
    expect(isOutage(1, 1)).toBe(false);
  });

  it("stays open while a test it named still fails, for at most an hour after it was posted", () => {
    const open = { at: AT, named: [101, 102, 103], recovered: [101] };
    expect(outageStillOpen(open, later(5 * 60_000))).toBe(true);
    expect(outageStillOpen(open, later(OUTAGE.openForMs - 1))).toBe(true);
    expect(outageStillOpen(open, later(OUTAGE.openForMs))).toBe(false);
  });

  it("stays open for a quiet period after the last test it named passed again, then is over", () => {
    const recoveredAt = later(5 * 60_000);
    const allPassed = {
      at: AT,
      named: [101, 102],
      recovered: [102, 101],
      lastRecoveredAt: recoveredAt.toISOString(),
    };
    const sinceRecovery = (ms: number) => new Date(recoveredAt.getTime() + ms);
    expect(outageStillOpen(allPassed, sinceRecovery(60_000))).toBe(true);
    expect(outageStillOpen(allPassed, sinceRecovery(OUTAGE.quietMs - 1))).toBe(true);
    expect(outageStillOpen(allPassed, sinceRecovery(OUTAGE.quietMs))).toBe(false);
  });

  it("recovered minutes ago is still over once the hour since it was posted is up", () => {
    const late = {
      at: AT,
      named: [101],
      recovered: [101],
      lastRecoveredAt: later(58 * 60_000).toISOString(),
    };
    expect(outageStillOpen(late, later(59 * 60_000))).toBe(true);
    expect(outageStillOpen(late, later(OUTAGE.openForMs))).toBe(false);
  });

  it("is over once every test it named passed again, when the record does not say when", () => {
    expect(outageStillOpen({ at: AT, named: [101, 102], recovered: [102, 101] }, later(60_000))).toBe(false);
    // A message that named no test (Slack took only its text) is no event to join.
    expect(outageStillOpen({ at: AT, named: [], recovered: [] }, later(60_000))).toBe(false);
    expect(outageStillOpen({ at: AT, named: [], recovered: [], lastRecoveredAt: AT }, later(60_000))).toBe(
      false,
    );
  });
});
