import type { GuardMark } from "../model/alert-evidence.ts";
import { byKind } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { pathsOverlap } from "./read-production-impact.ts";

export type GuardingTest = GuardMark;

/** A test's newest settled run as its own object's ledger holds it at this moment, and when it ran. */
export type LastRun = { runId: number; failed: boolean; at?: string | null };

/** Asks a test's own object for its last run; null when the object has no such test or did not answer. */
export type ReadLastRun = (testId: number) => Promise<LastRun | null>;

/** How many tests a collection alert names (src/messages/collection-card.ts shows 5). */
const MAX_GUARDS = 5;

/**
 * The reverse of a test's production impact: the channel's tests whose `page:` covers a
 * collection's path (from the readable copies), each with its last run read from its own
 * object's ledger — not from the copy, which an idle poll never rewrites, so that a collection
 * alert and an outage message posted a second apart tell the same run. No vendor request.
 */
export async function guardingTests(
  path: string | undefined,
  channel: readonly Subscription[],
  readLastRun: ReadLastRun,
): Promise<GuardingTest[]> {
  if (!path) return [];
  const tests = byKind(channel)
    .test.filter((s) => !!s.options?.page && pathsOverlap(s.options.page, path))
    .slice(0, MAX_GUARDS);
  return Promise.all(
    tests.map(async (s) => {
      const last = await readLastRun(s.testId).catch(() => null);
      // Its object did not answer: the test is named without a run rather than with an old one.
      return {
        testId: s.testId,
        testName: s.testName,
        lastRunId: last ? last.runId : null,
        failing: last?.failed ?? false,
        ...(last?.at ? { lastRunAt: last.at } : {}),
      };
    }),
  );
}
