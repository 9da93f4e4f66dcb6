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
});
