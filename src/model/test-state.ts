import * as CLASSIFY_THRESHOLDS from "./classify-thresholds.ts";
import type { ClassifiedRun, TestClassification, TestKind } from "./test-classification.ts";

/**
 * What the bot knows of a test's state, and the words for it: one set of facts that the digest,
 * `/decipher status` and App Home all describe with the same words (`testStateWords`), so they
 * never disagree. The facts change only when the test's state does (a failure, a recovery, a
 * class that changes, the flaky call), never with each passing run: a test that passes every
 * minute writes nothing.
 */
export type TestStateFacts = {
  /** The alerts' classification of the test's runs (src/model/test-classification.ts). */
  kind: TestKind;
  /** Failed runs in a row, newest first; 0 when the latest settled run passed. */
  trailingFailures: number;
  /** For a new failure: how many runs passed right before it; 0 otherwise. */
  passesBefore: number;
  /**
   * Its latest run passed, but its recent runs hold more failures than flaky allows, with a
   * pass between them (FFFFFFPFP), and fewer than 3 passes in a row since: not "passing".
   */
  failingOnAndOff: boolean;
  /** Some run was seen, settled or not. */
  anyRun: boolean;
  /** A failure streak is open (its alert is out, no recovery yet). */
  failingStreak: boolean;
  /**
   * When the bot called it flaky within the last 24 hours (its "is flaky" alert, or the first
   * failure it counted as flaky for the digest); null when it did not.
   */
  calledFlakyAt: string | null;
};

/** A test's state in one word: the digest's icon and order, and the weekly report's. */
export type TestState = "passing" | "failing" | "flaky" | "running" | "unknown";

/** The facts of a classification and of what the bot told the channel. */
export function testStateFacts(
  c: Pick<TestClassification<ClassifiedRun>, "kind" | "trailingFailures" | "passesBefore" | "window">,
  told: Pick<TestStateFacts, "anyRun" | "failingStreak" | "calledFlakyAt">,
): TestStateFacts {
  return {
    kind: c.kind,
    trailingFailures: c.trailingFailures,
    passesBefore: c.kind === "new-failure" ? c.passesBefore : 0,
    failingOnAndOff:
      c.kind === "passing" &&
      c.window.flipping &&
      c.window.failures >= CLASSIFY_THRESHOLDS.flakyMinFailures &&
      // When the latest run passed, passesBefore is its run of passes.
      c.passesBefore < CLASSIFY_THRESHOLDS.passingAgainAfterPasses,
    anyRun: told.anyRun,
    failingStreak: told.failingStreak,
    calledFlakyAt: told.calledFlakyAt,
  };
}

/**
 * - `failing`: broken, a new failure or failing — the alerts' words for a test whose latest
 *   run failed — and also a test whose latest run passed but whose recent runs hold more
 *   failures than flaky allows (`failingOnAndOff`).
 * - `flaky`: the classification says flaky, or the bot called it flaky within the day (its
 *   failures go to the day's flaky thread or the digest), unless it is broken now.
 * - `passing`: the latest run passed and neither of the above holds (a streak that ended in
 *   one block of failures is a recovery, as its alert said).
 * - `running` / `unknown`: no settled run yet, with or without a run under way.
 */
export function testState(facts: TestStateFacts): TestState {
  const called = facts.calledFlakyAt !== null;
  switch (facts.kind) {
    case "broken":
      return "failing";
    case "flaky":
      return "flaky";
    case "new-failure":
    case "failing":
      return called ? "flaky" : "failing";
    case "passing":
      return called ? "flaky" : facts.failingOnAndOff ? "failing" : "passing";
    case "unknown":
      return facts.anyRun ? "running" : facts.failingStreak ? "failing" : "unknown";
  }
}

const runs = (n: number) => `${n} run${n === 1 ? "" : "s"}`;
/** "failed 3 runs in a row", but "its last run failed": one run is no row (the alerts' words). */
const failedInARow = (n: number) => (n === 1 ? "its last run failed" : `failed ${runs(n)} in a row`);

/**
 * The words for the facts, plain text: a label (the state as the alerts name it) and why, and
 * when the bot called the test flaky (its time is shown by each place in its own form).
 * "broken: failed 3 runs in a row", "flaky: its last run passed" (called flaky, passing since).
 */
export function testStateWords(facts: TestStateFacts): { state: TestState; label: string; reason: string } {
  const state = testState(facts);
  const called = facts.calledFlakyAt !== null;
  const last = facts.trailingFailures > 0 ? failedInARow(facts.trailingFailures) : "its last run passed";
  switch (facts.kind) {
    case "broken":
      return { state, label: "broken", reason: failedInARow(facts.trailingFailures) };
    case "flaky":
      return { state, label: "flaky", reason: `failures with passes in between; ${last}` };
    case "new-failure":
      return called
        ? { state, label: "flaky", reason: last }
        : { state, label: "new failure", reason: `failed after ${runs(facts.passesBefore)} passed` };
    case "failing":
      return { state, label: called ? "flaky" : "failing", reason: last };
    case "passing":
      if (called) return { state, label: "flaky", reason: last };
      return facts.failingOnAndOff
        ? {
            state,
            label: "failing",
            reason: `over ${Math.round(CLASSIFY_THRESHOLDS.flakyMaxFailureShare * 100)} % of its recent runs failed; ${last}`,
          }
        : { state, label: "passing", reason: last };
    case "unknown":
      return facts.anyRun
        ? { state, label: "running", reason: "no finished run yet" }
        : facts.failingStreak
          ? { state, label: "failing", reason: "its alert is still open" }
          : { state, label: "unknown", reason: "no run seen yet" };
  }
}

/**
 * The facts a subscription's stored copy holds. A copy stored before they were kept says what
 * its open streak knows (failing for so many runs, and the day's flaky call), or null: nothing
 * known until its next poll, which is at most a minute away.
 */
export function factsOfSubscription(
  sub: {
    stateFacts?: TestStateFacts | undefined;
    streak: { failedRuns: number } | null;
    flakyThread?: { ts: string } | null | undefined;
  },
  now: Date,
): TestStateFacts | null {
  if (sub.stateFacts) return sub.stateFacts;
  if (!sub.streak) return null;
  const said = Number(sub.flakyThread?.ts) * 1000;
  const called = Number.isFinite(said) && said > 0 && now.getTime() - said < 24 * 60 * 60 * 1000;
  return {
    kind: sub.streak.failedRuns >= CLASSIFY_THRESHOLDS.brokenAfterFailures ? "broken" : "failing",
    trailingFailures: sub.streak.failedRuns,
    passesBefore: 0,
    failingOnAndOff: false,
    anyRun: true,
    failingStreak: true,
    calledFlakyAt: called ? new Date(said).toISOString() : null,
  };
}
