import { describe, expect, it } from "vitest";
import type { TestInfo, TestRun } from "../../src/decipher/types.ts";
import { decideTestStep } from "../../src/engine/decide-test-step.ts";
import { renderTestMessage } from "../../src/engine/render-test-step.ts";
import { undecidedRow } from "../../src/model/run-ledger.ts";
import { runRecord } from "../../src/model/run-record.ts";
import type { FailureStreak, TestSubscription } from "../../src/model/subscription.ts";

const NOW = new Date("2026-03-02T10:00:00.000Z");
const test: TestInfo = { id: 101, name: "Checkout flow", url: "https://app.test/tests/101" };

const run: TestRun = {
  object: "testRun",
  id: 9001,
  testId: 101,
  status: "failed",
  startTime: "2026-03-02T09:58:00.000Z",
  endTime: "2026-03-02T09:59:30.000Z",
  durationMs: 90_000,
  triggeredBy: "schedule",
  createdAt: "2026-03-02T09:58:00.000Z",
  summary: { oneLineSummary: "The Pay now button did nothing", firstFailedStepNumber: 4 },
  totalSteps: 9,
  failedSteps: 1,
};

const sub: TestSubscription = {
  kind: "test",
  testId: 101,
  testName: "Checkout flow",
  channelId: "C1",
  teamId: "T1",
  createdAt: "2026-03-01T00:00:00.000Z",
  lastChangeAt: "2026-03-01T00:00:00.000Z",
  lastRunId: null,
  lastRunAt: null,
  streak: null,
  lastError: null,
  erroringSince: null,
  paused: null,
} as unknown as TestSubscription;

describe("an alert's state keeps the bot's own run record, not the vendor's run", () => {
  it("stores the first run of a new streak without the vendor's wire fields", () => {
    const step = decideTestStep({
      sub,
      rows: [undecidedRow(run.id, "failed", run.createdAt)],
      runs: new Map([[run.id, { ...run, extra: "a field Decipher added" } as TestRun]]),
      test,
      meaning: null,
      appUrl: "https://app.test",
      now: NOW,
      hold: false,
      group: null,
    });
    expect(step.kind).toBe("post");
    if (step.kind !== "post") return;
    const stored = step.delivered("1700000000.000100").sub.streak?.firstRun;
    expect(stored).toEqual(runRecord(run));
    expect(stored).not.toHaveProperty("object");
    expect(stored).not.toHaveProperty("extra");
  });

  it("renders a streak stored before, holding the vendor's whole run, as it renders the record", () => {
    const streak = (firstRun: FailureStreak["firstRun"]): FailureStreak => ({
      threadTs: "1700000000.000100",
      failedRuns: 2,
      firstRunId: run.id,
      lastRunId: run.id + 1,
      firstRun,
      lastFailedAt: "2026-03-02T09:59:30.000Z",
    });
    const render = (firstRun: FailureStreak["firstRun"]) =>
      renderTestMessage(
        {
          kind: "failure-alert",
          sub,
          streak: streak(firstRun),
          recoveredBy: null,
          ping: false,
          passedNext: false,
        },
        { test, appUrl: "https://app.test", now: NOW, meaning: null },
      );
    expect(render(run)).toEqual(render(runRecord(run)));
    expect(JSON.stringify(render(runRecord(run)))).toContain("The Pay now button did nothing");
  });
});
