import { describe, expect, it } from "vitest";
import type { TestRun } from "../../src/decipher/types.ts";
import { routeFailure, runsForOptions } from "../../src/engine/failure-route.ts";
import { DEFAULT_TEST_OPTIONS, resolveTestOptions, type TestOptions } from "../../src/model/subscription.ts";
import { classifyTest } from "../../src/model/test-classification.ts";

const NOW = new Date("2026-02-16T12:00:00.000Z");

/** "PPF…" oldest first, a minute apart, ending now; the last one is the run being routed. */
function runs(pattern: string, triggers: string[] = []): TestRun[] {
  return [...pattern].map((c, i) => {
    const at = new Date(NOW.getTime() - (pattern.length - 1 - i) * 60_000).toISOString();
    return {
      object: "testRun",
      id: 100 + i,
      testId: 101,
      status: c === "F" ? "failed" : "passed",
      startTime: at,
      endTime: at,
      durationMs: 1000,
      triggeredBy: triggers[i] ?? "schedule",
      createdAt: at,
      summary: { oneLineSummary: "", firstFailedStepNumber: null },
      totalSteps: 5,
      failedSteps: c === "F" ? 1 : 0,
    };
  });
}

/**
 * The route of the last run of `pattern`, as `decideTestStep` asks it: the test's class over
 * the runs its subscription counts, `quiet` failures counted for `after:` before this one.
 */
function route(
  pattern: string,
  options: Partial<TestOptions> = {},
  {
    triggers,
    quiet = 0,
    calledToday = false,
  }: { triggers?: string[]; quiet?: number; calledToday?: boolean } = {},
) {
  const resolved = resolveTestOptions({ ...DEFAULT_TEST_OPTIONS, ...options });
  const kind = classifyTest(runsForOptions(runs(pattern, triggers), resolved), NOW).kind;
  return routeFailure({ options: resolved, kind, calledFlakyToday: calledToday, quietFailures: quiet });
}

const FLAKY = "PPPPPPPPFPPPPPPPPPPF";

describe("routeFailure, the router decideTestStep runs", () => {
  it("alerts a new failure and a broken test by default", () => {
    expect(route("PPPPPF")).toBe("alert");
    expect(route("PPPPPFFF")).toBe("alert");
  });

  it("sends a flaky test's failure where flaky: says", () => {
    expect(route(FLAKY)).toBe("thread");
    expect(route(FLAKY, { flaky: "digest" })).toBe("digest");
    expect(route(FLAKY, { flaky: "alert" })).toBe("alert");
  });

  it("waits until after: counts enough failures not yet told, flaky:alert included", () => {
    expect(route("PPPPPFF", { after: 3 }, { quiet: 1 })).toBe("wait");
    expect(route("PPPPPFFF", { after: 3 }, { quiet: 2 })).toBe("alert");
    expect(route(FLAKY, { flaky: "alert", after: 2 })).toBe("wait");
    // A flaky route holds whatever after: says.
    expect(route(FLAKY, { after: 5 })).toBe("thread");
  });

  it("keeps a test called flaky today in its thread, whatever its class says now", () => {
    expect(route("PPPPPF", {}, { calledToday: true })).toBe("thread");
    expect(route("PPPPPF", { flaky: "digest" }, { calledToday: true })).toBe("digest");
  });

  it("classifies on the subscription's trigger only", () => {
    // Counted alone, the deploy runs passed five times before this failure: a new failure, not flaky.
    const triggers = ["deploy", "schedule", "deploy", "deploy", "schedule", "deploy", "deploy", "deploy"];
    expect(route("PFPPFPPF", { trigger: "deploy" }, { triggers })).toBe("alert");
    expect(route("PFPPFPPF", {}, { triggers })).toBe("thread");
  });
});
