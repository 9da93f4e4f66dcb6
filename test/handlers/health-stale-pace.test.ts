import { describe, expect, it } from "vitest";
import { healthProblems, healthState } from "../../src/handlers/health-state.ts";
import type { EngineHealth } from "../../src/model/alert-control.ts";
import { FREE_PLAN, type Plan } from "../../src/model/plan-governor.ts";

// `/health` says "no successful poll" only when one was due: a subscription tells the registry
// of its successes when it renews its lease, and a slowed clock renews every 12 polls.

const MINUTE = 60_000;
const NOW = Date.parse("2026-11-29T12:00:00.000Z");

const healthWith = (subscriptions: number, lastSuccessMinutesAgo: number): EngineHealth => ({
  firstCycleAt: new Date(NOW - 2 * 24 * 60 * MINUTE).toISOString(),
  lastCycleAt: new Date(NOW - MINUTE).toISOString(),
  lastSuccessAt: new Date(NOW - lastSuccessMinutesAgo * MINUTE).toISOString(),
  subscriptions,
  teams: 1,
  erroring: 0,
  paused: 0,
  overdue: 0,
  slackWorkspace: null,
});

/** A plan so tight that 3 subscriptions are polled hourly (renewing every 12 hours). */
const TIGHT: Plan = {
  name: "the plan set in PLAN",
  daily: { objectRequests: 3_000, rowsWritten: 100_000, rowsRead: 5_000_000 },
};

describe("/health's 'no successful poll' follows the clock's pace", () => {
  it("at full speed, 20 minutes without a success is a problem", () => {
    const state = healthState(healthWith(20, 20), FREE_PLAN, NOW);
    expect(state.stale).toBe(true);
    expect(healthProblems(state)).toContain("no successful poll for over 15 minutes");
  });

  it("polled hourly, 3 subscriptions 2 hours without a success are not (none was due), 13 hours are", () => {
    const slowed = healthState(healthWith(3, 120), TIGHT, NOW);
    expect(slowed.governed.pace.idleMs).toBe(60 * MINUTE);
    expect(slowed.stale).toBe(false);
    const stopped = healthState(healthWith(3, 13 * 60 + 5), TIGHT, NOW);
    expect(stopped.stale).toBe(true);
    expect(healthProblems(stopped)).toContain("no successful poll for over 780 minutes");
  });
});
