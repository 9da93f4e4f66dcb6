import { describe, expect, it } from "vitest";
import { testUnfurl } from "../../src/messages/test-unfurl.ts";
import { APP, aRun, aTest } from "./fixtures.ts";

describe("a run link's unfurl", () => {
  it("names the run as Run #<id>, as alerts and status do", () => {
    const run = aRun({ id: 10_084 });
    const text = JSON.stringify(
      testUnfurl({
        url: `${APP}/tests/7/runs/10084`,
        lookup: { test: aTest, recent: [run], lastFailure: run, run },
      }),
    );
    expect(text).toContain("Run #10084");
    expect(text).not.toMatch(/Run 10084/);
  });

  it("says plainly that the test ran again since a failed run, naming the newest run, how it ended and when", () => {
    const run = aRun({ id: 10_084, status: "failed" });
    const later = [aRun({ id: 10_086, status: "passed" }), aRun({ id: 10_085, status: "failed" })];
    const text = JSON.stringify(
      testUnfurl({
        url: `${APP}/tests/7/runs/10084`,
        lookup: { test: aTest, recent: [...later, run], lastFailure: run, run },
      }),
    );
    expect(text).toMatch(/Ran again since: 2 finished runs, up to run #10086, which passed <!date\^\d+\^/);
  });

  it("adds nothing to a run link of the test's newest run", () => {
    const run = aRun({ id: 10_084, status: "failed" });
    const text = JSON.stringify(
      testUnfurl({
        url: `${APP}/tests/7/runs/10084`,
        lookup: { test: aTest, recent: [run, aRun({ id: 10_083, status: "passed" })], lastFailure: run, run },
      }),
    );
    expect(text).not.toMatch(/Ran again since/);
  });
});
