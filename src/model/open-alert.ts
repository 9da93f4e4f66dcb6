import type { FailureStreak, FlakyThread, TestSubscription } from "./subscription.ts";

/**
 * Which of a test's alerts can be shown again, and which one is open: questions the engine
 * decides on before anything is rendered (src/engine/alert-parents.ts renders the same ones).
 */

/** A streak's own parent can be re-rendered: it has its first run, and is not an outage message. */
export const showsTestParent = (streak: FailureStreak): boolean => !!streak.firstRun && !streak.grouped;

/** The day's "is flaky" alert can be re-rendered: a thread opened before its run was stored cannot. */
export const showsFlakyParent = (flaky: FlakyThread): boolean => !!flaky.firstRun;

/**
 * The ts of the test's open alert, the one its buttons belong to: the open streak's parent,
 * else the newer of the day's "is flaky" alert and the last streak's green parent; null when
 * none can be shown.
 */
export function openAlertTs(sub: TestSubscription): string | null {
  const streak = sub.streak;
  if (streak && showsTestParent(streak)) return streak.threadTs;
  const flaky = sub.flakyThread;
  const green = sub.recoveredParent?.recoveredBy ? sub.recoveredParent : undefined;
  if (flaky && (!green || Number(flaky.ts) > Number(green.ts)))
    return showsFlakyParent(flaky) ? flaky.ts : null;
  if (!green) return null;
  return showsTestParent(green.streak) ? green.ts : null;
}
