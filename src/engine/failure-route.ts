import type { TestRun } from "../decipher/types.ts";
import { type ResolvedTestOptions, resolveTestOptions, type TestOptions } from "../model/subscription.ts";
import type { TestKind } from "../model/test-classification.ts";

/**
 * Where a new failed run goes (one that no streak, outage, mute or snooze has claimed), from
 * the subscription's options, the test's class as of that run and the failures it counted
 * without telling: the pure half of "quiet by understanding". `decideTestStep` asks it and
 * acts on the answer.
 *
 * - `thread` / `digest`: a flaky test's failure, where `flaky:` says. A test called flaky
 *   today keeps its failures in the day's thread, whatever its class says now.
 * - `wait`: fewer failures in a row than `after:` asks for; a later failure may alert.
 * - `alert`: anything else (a flaky one too with `flaky:alert`, once `after:` is met).
 *
 * Runs of another trigger than `trigger:` never get here: they neither alert nor recover.
 */
export type FailureRoute = "wait" | "thread" | "digest" | "alert";

export function routeFailure(input: {
  options: ResolvedTestOptions;
  /** The test's class as of this run, when one was read. */
  kind: TestKind | null;
  /** The bot called the test flaky today, and its alert said where its failures go. */
  calledFlakyToday: boolean;
  /** Failures counted for `after:` since the last one told. */
  quietFailures: number;
}): FailureRoute {
  const { options } = input;
  // A quiet choice for flaky failures holds whatever `after:` says; `flaky:alert` still waits for it.
  const flaky = input.calledFlakyToday || (options.flaky !== "alert" && input.kind === "flaky");
  if (flaky) return options.flaky === "digest" ? "digest" : "thread";
  if (input.quietFailures + 1 < options.after) return "wait";
  return "alert";
}

/** The runs a subscription counts: only its trigger's, when it names one. */
export function runsForOptions(runs: readonly TestRun[], options: TestOptions | undefined): TestRun[] {
  const { trigger } = resolveTestOptions(options);
  return trigger === null ? [...runs] : runs.filter((run) => run.triggeredBy === trigger);
}
