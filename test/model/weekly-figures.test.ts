import { describe, expect, it } from "vitest";
import type { TestRun } from "../../src/decipher/types.ts";
import { flakiest, weekTestFigures } from "../../src/model/weekly-figures.ts";
import { aRun } from "../messages/fixtures.ts";

const run = (id: number, status: TestRun["status"], day: string): TestRun =>
  aRun({ id, status, createdAt: `2026-03-0${day}T10:00:00.000Z` });
const byDate = (r: TestRun) => r.createdAt.slice(0, 10);

describe("a week of a test's runs", () => {
  it("counts failures, recoveries and flips in run order, whatever order the list came in", () => {
    const runs = [
      run(6, "passed", "5"),
      run(1, "passed", "2"),
      run(3, "failed", "3"),
      run(2, "failed", "2"),
      run(4, "passed", "3"),
      run(5, "failed", "4"),
      run(7, "running", "5"),
      run(3, "failed", "3"),
    ];
    expect(weekTestFigures(runs, byDate)).toEqual({
      runs: 7,
      settled: 6,
      failures: 3,
      recoveries: 2,
      flips: 4,
      perDay: {
        "2026-03-02": { passed: 1, failed: 1 },
        "2026-03-03": { passed: 1, failed: 1 },
        "2026-03-04": { passed: 0, failed: 1 },
        "2026-03-05": { passed: 1, failed: 0 },
      },
    });
  });

  it("ranks as flakiest the tests that failed and recovered twice or more, most flips first", () => {
    const figures = (flips: number, failures: number, recoveries: number, settled = 20) => ({
      runs: settled,
      settled,
      failures,
      recoveries,
      flips,
      perDay: {},
    });
    const tests = [
      { id: "broken once", figures: figures(1, 10, 0) },
      { id: "flips a lot", figures: figures(8, 4, 4) },
      { id: "flips some", figures: figures(4, 2, 2) },
      { id: "flips some, fails more", figures: figures(4, 6, 2) },
    ];
    expect(flakiest(tests).map((t) => t.id)).toEqual(["flips a lot", "flips some, fails more", "flips some"]);
  });
});
