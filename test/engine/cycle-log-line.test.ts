import { describe, expect, it } from "vitest";
import { type CycleReport, cycleLogLine } from "../../src/cron.ts";
import { cycleReportOf } from "../helpers/cycle-report.ts";

const report = (woken: number): CycleReport => ({
  subscriptions: woken,
  polled: woken,
  busy: 0,
  erroring: 0,
  paused: 0,
  posts: 0,
  digestsSent: 0,
  errors: 0,
  held: 0,
  writes: { storage: 0, kv: 0 },
});

describe("the cron's log line", () => {
  it("says the watchdog counted the objects it woke, not the subscriptions that exist", () => {
    const line = cycleLogLine(report(0), false);
    expect(line).toMatch(
      /^watchdog: woke 0 subscriptions whose own alarm was overdue \(the others poll on their own alarms\)/,
    );
    expect(line).not.toMatch(/^poll cycle \{"subscriptions"/);
  });

  it("says Poll now woke every subscription", () => {
    expect(cycleLogLine(report(4), true)).toMatch(/^poll everything: woke all 4 subscriptions; 4 polled/);
  });

  it("keeps the report readable from the line, and reads no other line", () => {
    expect(cycleReportOf(cycleLogLine({ ...report(3), busy: 2 }, false))?.busy).toBe(2);
    expect(cycleReportOf("poll of x failed: boom")).toBeNull();
  });
});
