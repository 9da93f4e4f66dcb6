import type { Subscription, TestSubscription } from "../model/subscription.ts";
import { pathsOverlap } from "./read-production-impact.ts";

export type GuardingTest = { testId: number; testName: string; lastRunId: number; failing: boolean };

/**
 * The reverse of a test's production impact: the channel's tests whose `page:` covers a
 * collection's path. Read from the readable copies (no vendor request).
 */
export function guardingTests(path: string | undefined, channel: readonly Subscription[]): GuardingTest[] {
  if (!path) return [];
  return channel
    .filter(
      (s): s is TestSubscription =>
        s.kind === "test" && !!s.options?.page && pathsOverlap(s.options.page, path),
    )
    .map((s) => ({
      testId: s.testId,
      testName: s.testName,
      lastRunId: s.streak?.lastRunId ?? s.lastRunId,
      failing: s.streak !== null,
    }));
}
