import { describe, expect, it } from "vitest";
import type { TestRun } from "../../src/decipher/types.ts";
import { routeFailure } from "../../src/engine/failure-route.ts";
import { DEFAULT_TEST_OPTIONS, type TestOptions } from "../../src/model/subscription.ts";

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

function route(pattern: string, options: Partial<TestOptions> = {}, triggers?: string[]) {
  const all = runs(pattern, triggers);
  const run = all.at(-1) as TestRun;
  return routeFailure(run, all.slice(0, -1), { ...DEFAULT_TEST_OPTIONS, ...options }, NOW).route;
}

const FLAKY = "PPPPPPPPFPPPPPPPPPPF";

describe("routeFailure", () => {
  it("alerts a new failure and a broken test by default", () => {
    expect(route("PPPPPF")).toBe("alert");
    expect(route("PPPPPFFF")).toBe("alert");
  });

  it("sends a flaky test's failure where flaky: says", () => {
    expect(route(FLAKY)).toBe("thread");
    expect(route(FLAKY, { flaky: "digest" })).toBe("digest");
    expect(route(FLAKY, { flaky: "alert" })).toBe("alert");
  });

  it("waits until after: failures in a row, flaky:alert included", () => {
    expect(route("PPPPPFF", { after: 3 })).toBe("wait");
    expect(route("PPPPPFFF", { after: 3 })).toBe("alert");
    expect(route(FLAKY, { flaky: "alert", after: 2 })).toBe("wait");
  });

  it("ignores runs of another trigger, and classifies on the subscription's trigger only", () => {
    expect(route("PPPPPF", { trigger: "deploy" })).toBe("ignore");
    // Counted alone, the deploy runs passed five times before this failure: a new failure, not flaky.
    const triggers = ["deploy", "schedule", "deploy", "deploy", "schedule", "deploy", "deploy", "deploy"];
    expect(route("PFPPFPPF", { trigger: "deploy" }, triggers)).toBe("alert");
    expect(route("PFPPFPPF", {}, triggers)).toBe("thread");
  });
});
