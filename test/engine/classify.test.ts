import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TestRun, TestRunStatus } from "../../src/decipher/types.ts";
import { runStrip } from "../../src/messages/run-strip.ts";
import * as CLASSIFY_THRESHOLDS from "../../src/model/classify-thresholds.ts";
import { classifyTest } from "../../src/model/test-classification.ts";

const NOW = new Date("2026-02-16T12:00:00.000Z");
const MINUTE = 60_000;
const T = CLASSIFY_THRESHOLDS;

function run(id: number, status: TestRunStatus, minutesAgo: number): TestRun {
  const at = new Date(NOW.getTime() - minutesAgo * MINUTE).toISOString();
  return {
    object: "testRun",
    id,
    testId: 101,
    status,
    startTime: at,
    endTime: status === "running" ? null : at,
    durationMs: status === "running" ? null : 60_000,
    triggeredBy: "schedule",
    createdAt: at,
    summary: status === "running" ? null : { oneLineSummary: "", firstFailedStepNumber: null },
    totalSteps: 10,
    failedSteps: status === "failed" ? 1 : 0,
  };
}

/** "PPFR…" oldest first, one run a minute ending now: P passed, F failed, R running. */
function history(pattern: string, everyMinutes = 1): TestRun[] {
  const status = { P: "passed", F: "failed", R: "running" } as const;
  return [...pattern].map((c, i) =>
    run(1000 + i, status[c as keyof typeof status], (pattern.length - 1 - i) * everyMinutes),
  );
}

const kindOf = (pattern: string, everyMinutes = 1) => classifyTest(history(pattern, everyMinutes), NOW).kind;

describe("classifyTest: examples", () => {
  it.each([
    ["", "unknown"],
    ["RR", "unknown"],
    ["PPPPPF", "new-failure"],
    ["PPPPPPPPPPF", "new-failure"],
    ["PPPPF", "failing"],
    ["PPPPPFF", "failing"],
    ["PPPPPFFF", "broken"],
    ["FFFFFFFFFF", "broken"],
    ["PFPFPPFFF", "broken"],
    ["PPPPPPPPFPPPPPPPFPPP", "flaky"],
    ["PPPPPPPPFPPPPPPPPPPF", "flaky"],
    ["PPPPPPPPPPPPPPPPFFPP", "passing"],
    ["PPPPPPPPPPPPPPPP", "passing"],
    ["FPFPFPFPF", "flaky"],
    ["FPFPFPFP", "flaky"],
    ["PPFFPPFFPPFF", "flaky"],
    ["FFFFFFPF", "failing"],
    ["FFFFFFPFP", "passing"],
    ["PFPF", "failing"],
  ])("%j is %s", (pattern, kind) => {
    expect(kindOf(pattern)).toBe(kind);
  });

  it("says why, in a sentence", () => {
    expect(classifyTest(history("PPPPPFFF"), NOW).reason).toBe("failed 3 runs in a row");
    expect(classifyTest(history("PPPPPF"), NOW).reason).toBe("failed after 5 runs passed");
    expect(classifyTest(history("PPPFPPPPFP"), NOW).reason).toBe(
      "failed 2 of the last 10 runs, passing in between",
    );
  });

  it("never says a row of one run: 'its last run failed', 'its last run passed'", () => {
    expect(classifyTest(history("PPF"), NOW).reason).toBe("its last run failed");
    expect(classifyTest(history("FFP"), NOW).reason).toBe("its last run passed");
    expect(classifyTest(history("FFPP"), NOW).reason).toBe("passed 2 runs in a row");
  });

  it("reads runs by id, whatever order the vendor lists them in, each id once", () => {
    const runs = history("PPPPPPF");
    expect(classifyTest([...runs].reverse(), NOW).kind).toBe("new-failure");
    expect(classifyTest([...runs, ...runs], NOW)).toEqual(classifyTest(runs, NOW));
  });

  it("ignores running runs, even the newest", () => {
    expect(kindOf("PPPPPFR")).toBe("new-failure");
    expect(kindOf("PPPPPRFRR")).toBe("new-failure");
    expect(classifyTest(history("PPPPPFR"), NOW).latest?.id).toBe(1005);
  });

  it("judges flakiness on the last 20 runs only", () => {
    // Two flakes 21+ runs ago and one now: only one failure is inside the window.
    expect(kindOf(`PFPFP${"P".repeat(19)}F`)).toBe("new-failure");
  });

  it("judges flakiness on the last 24 h only, when that holds fewer runs than 20", () => {
    // One run every 2 hours: the flake 26 h ago is forgotten; the window holds the 13 runs
    // of the last 24 h (both ends included).
    const pattern = "PPPFPPPPPPPPPPPPF";
    expect(classifyTest(history(pattern, 120), NOW)).toMatchObject({
      kind: "new-failure",
      window: { runs: 13, failures: 1 },
    });
    expect(kindOf(pattern, 1)).toBe("flaky");
  });

  it("leaves runs whose time cannot be read out of the 24 h window", () => {
    const runs = history("PPPFPPPPPF").map((r) => (r.id === 1003 ? { ...r, createdAt: "yesterday" } : r));
    expect(classifyTest(runs, NOW)).toMatchObject({ kind: "new-failure", window: { runs: 9, failures: 1 } });
  });

  it("exports one object with every threshold", () => {
    expect(T).toMatchObject({
      newFailureAfterPasses: 5,
      brokenAfterFailures: 3,
      flakyWindowRuns: 20,
      flakyWindowMs: 86_400_000,
      flakyMinFailures: 2,
      flakyMaxFailureShare: 0.4,
      flakyRelapsesAnyShare: 2,
    });
  });
});

// A reference model written apart from the implementation, over statuses oldest first.
const settledOf = (s: TestRunStatus[]) => s.filter((x) => x !== "running");
function trailing(s: TestRunStatus[], status: TestRunStatus): number {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === status; i--) n++;
  return n;
}

const statuses = fc.array(fc.constantFrom<TestRunStatus>("passed", "failed", "running", "passed"), {
  maxLength: 40,
});
/** Statuses, minutes between runs (so both windows get to be the smaller one), and a listing order. */
const scenario = fc.record({
  statuses,
  every: fc.constantFrom(1, 30, 90, 240),
  order: fc.array(fc.integer(), { minLength: 40, maxLength: 40 }),
});

function runsOf({ statuses, every }: { statuses: TestRunStatus[]; every: number }): TestRun[] {
  return statuses.map((s, i) => run(5000 + i * 7, s, (statuses.length - 1 - i) * every));
}

describe("classifyTest: properties", () => {
  it("is broken exactly when the last 3 or more settled runs failed", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const broken = classifyTest(runsOf(sc), NOW).kind === "broken";
        expect(broken).toBe(trailing(settledOf(sc.statuses), "failed") >= T.brokenAfterFailures);
      }),
    );
  });

  it("is flaky only with 2+ failures not in one block, and at most 40 % of them or 2+ relapses", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const c = classifyTest(runsOf(sc), NOW);
        if (c.kind !== "flaky") return;
        expect(c.window.failures).toBeGreaterThanOrEqual(2);
        expect(c.window.runs).toBeLessThanOrEqual(20);
        const window = settledOf(sc.statuses).slice(-c.window.runs).join(",");
        expect(window).toMatch(/failed.*passed.*failed/);
        const fewFailures = c.window.failures / c.window.runs <= 0.4;
        const flipsOften = /failed.*passed.*failed.*passed.*failed/.test(window);
        expect(fewFailures || flipsOften).toBe(true);
      }),
    );
  });

  it("calls a test that keeps flipping flaky whatever its share of failures, unless broken now", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const c = classifyTest(runsOf(sc), NOW);
        const window = settledOf(sc.statuses).slice(-c.window.runs).join(",");
        if (!/failed.*passed.*failed.*passed.*failed/.test(window)) return;
        expect(c.kind).toBe(c.trailingFailures >= T.brokenAfterFailures ? "broken" : "flaky");
      }),
    );
  });

  it("calls a failure new only after at least 5 passes in a row before it", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const settled = settledOf(sc.statuses);
        const c = classifyTest(runsOf(sc), NOW);
        if (c.kind !== "new-failure") return;
        expect(settled.at(-1)).toBe("failed");
        expect(trailing(settled.slice(0, -1), "passed")).toBeGreaterThanOrEqual(T.newFailureAfterPasses);
      }),
    );
  });

  it("follows the latest settled run: unknown without one, failing/passing by its status", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const latest = settledOf(sc.statuses).at(-1);
        const { kind } = classifyTest(runsOf(sc), NOW);
        if (latest === undefined) expect(kind).toBe("unknown");
        if (kind === "passing") expect(latest).toBe("passed");
        if (kind === "failing" || kind === "new-failure" || kind === "broken") expect(latest).toBe("failed");
      }),
    );
  });

  it("does not depend on the order runs are listed in, nor on running runs", () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const runs = runsOf(sc);
        const shuffled = runs
          .map((r, i) => ({ r, k: sc.order[i] ?? i }))
          .sort((a, b) => a.k - b.k)
          .map(({ r }) => r);
        const expected = classifyTest(runs, NOW);
        expect(classifyTest(shuffled, NOW)).toEqual(expected);
        expect(
          classifyTest(
            runs.filter((r) => r.status !== "running"),
            NOW,
          ),
        ).toEqual(expected);
      }),
    );
  });

  it("calls a lone failure after 5 or more passes new", () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 30 }), (passes) => {
        expect(kindOf(`${"P".repeat(passes)}F`)).toBe("new-failure");
      }),
    );
  });
});

describe("runStrip", () => {
  it("shows the last 10 runs by id, newest last, running as white", () => {
    const runs = history("FFPPPPFPPPFR");
    expect(runStrip([...runs].reverse(), 10)).toBe("🟩🟩🟩🟩🟥🟩🟩🟩🟥⬜");
  });

  it("is empty without runs and shorter with fewer", () => {
    expect(runStrip([], 10)).toBe("");
    expect(runStrip(history("PF"), 10)).toBe("🟩🟥");
  });
});
