import type { TestRun } from "../decipher/types.ts";
import { resolveTestOptions, type TestOptions } from "../model/subscription.ts";
import { classifyTest, type TestClassification } from "../model/test-classification.ts";

/**
 * Where one failed run goes, from the test's classification and the subscription's options:
 * the pure half of "quiet by understanding", for the engine to act on.
 *
 * - `ignore`: another trigger than the subscription's `trigger:` started it.
 * - `wait`: fewer failures in a row than `after:` asks for; a later failure may alert.
 * - `thread` / `digest`: a flaky test's failure, where `flaky:` says.
 * - `alert`: anything else (a flaky one too with `flaky:alert`, once `after:` is met). A broken
 *   test's later failures are still one outage: the engine threads them under the streak's
 *   first alert.
 */
export type FailureRoute = "ignore" | "wait" | "thread" | "digest" | "alert";

/** The runs a subscription counts: only its trigger's, when it names one. */
export function runsForOptions(runs: readonly TestRun[], options: TestOptions | undefined): TestRun[] {
  const { trigger } = resolveTestOptions(options);
  return trigger === null ? [...runs] : runs.filter((run) => run.triggeredBy === trigger);
}

export function routeFailure(
  run: TestRun,
  history: readonly TestRun[],
  stored: TestOptions | undefined,
  now: Date,
): { route: FailureRoute; classification: TestClassification } {
  const options = resolveTestOptions(stored);
  const counted = runsForOptions([...history, run], options);
  const classification = classifyTest(counted, now);
  if (options.trigger !== null && run.triggeredBy !== options.trigger)
    return { route: "ignore", classification };
  // A quiet choice for flaky failures holds whatever `after:` says; `flaky:alert` still waits for it.
  if (classification.kind === "flaky" && options.flaky !== "alert")
    return { route: options.flaky, classification };
  if (classification.trailingFailures < options.after) return { route: "wait", classification };
  return { route: "alert", classification };
}
