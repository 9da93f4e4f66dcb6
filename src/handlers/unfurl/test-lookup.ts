import type { TestRun } from "../../decipher/types.ts";
import type { VendorClient } from "../../decipher/vendor-client.ts";
import type { RunFacts, TestLookup } from "../../messages/test-unfurl.ts";

/** Every link costs at most this many vendor calls. */
const MAX_CALLS = 3;
const PAGE = 100;

const facts = (r: TestRun): RunFacts => ({
  id: r.id,
  status: r.status,
  createdAt: r.createdAt,
  durationMs: r.durationMs,
  totalSteps: r.totalSteps,
  failedSteps: r.failedSteps,
  summary: r.summary,
});

/**
 * One page of the newest runs gives the name, the strip and usually the last failure; a
 * second call finds an older failure; a run link pages further (newest first) for its run.
 * Null — Slack's own preview — for an unknown test or run, or when Decipher fails.
 */
export async function lookupTest(
  vendor: VendorClient,
  testId: number,
  runId?: number,
): Promise<TestLookup | null> {
  try {
    let calls = 1;
    const first = await vendor.listTestRuns(testId, { limit: PAGE });
    let lastFailure = first.data.find((r) => r.status === "failed") ?? null;
    if (!lastFailure && first.hasMore) {
      calls++;
      lastFailure = (await vendor.listTestRuns(testId, { status: "failed", limit: 1 })).data[0] ?? null;
    }
    let run: TestRun | null = null;
    if (runId !== undefined) {
      run = first.data.find((r) => r.id === runId) ?? null;
      let cursor = first.hasMore ? first.nextCursor : null;
      while (!run && cursor && calls < MAX_CALLS) {
        calls++;
        const page = await vendor.listTestRuns(testId, { limit: PAGE, cursor });
        run = page.data.find((r) => r.id === runId) ?? null;
        cursor = page.hasMore ? page.nextCursor : null;
      }
      if (!run) return null;
    }
    return {
      test: first.test,
      recent: first.data.slice(0, 10).map(facts),
      lastFailure: lastFailure ? facts(lastFailure) : null,
      run: run ? facts(run) : null,
    };
  } catch {
    return null;
  }
}
