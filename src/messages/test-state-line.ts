import type { TestState, TestStateFacts } from "../model/test-state.ts";
import { testStateWords } from "../model/test-state.ts";
import { dateToken, escapeMrkdwn, isoUtc, toDate } from "./mrkdwn.ts";

/** A state's icon where mrkdwn is shown (sections, context). */
export const STATE_ICON: Record<TestState, string> = {
  passing: ":large_green_circle:",
  failing: ":red_circle:",
  flaky: ":large_yellow_circle:",
  running: ":large_blue_circle:",
  unknown: ":white_circle:",
};

/** The same icon where text is shown literally (table cells): the emoji itself. */
export const STATE_CELL_ICON: Record<TestState, string> = {
  passing: "🟢",
  failing: "🔴",
  flaky: "🟡",
  running: "🔵",
  unknown: "⚪",
};

/**
 * A test's state in words, the same in the digest, `/decipher status` and App Home:
 * ":red_circle: broken: failed 3 runs in a row · called flaky <date>". The time the bot called
 * it flaky is a Slack date token, shown in each reader's zone and never going stale.
 */
export function testStateLine(facts: TestStateFacts | null): string {
  // A copy stored before the facts were kept, with no alert open: its next poll reads them.
  if (!facts)
    return `${STATE_ICON.unknown} state not read yet: its next poll reads it (no failure alert open)`;
  const { state, label, reason } = testStateWords(facts);
  const called = facts.calledFlakyAt ? ` · called flaky ${dateToken(facts.calledFlakyAt)}` : "";
  return `${STATE_ICON[state]} ${escapeMrkdwn(`${label}: ${reason}`)}${called}`;
}

/** Its state alone, for a line read at a glance (Home): ":large_yellow_circle: flaky". */
export function testStateGlance(facts: TestStateFacts | null): string {
  if (!facts) return `${STATE_ICON.unknown} not read yet`;
  const { state, label } = testStateWords(facts);
  return `${STATE_ICON[state]} ${escapeMrkdwn(label)}`;
}

/**
 * The same words as literal text, for a table cell: the date token's own fallback
 * ("2026-02-16 10:02 UTC") stands for the time.
 */
export function testStateCell(facts: TestStateFacts): string {
  const { state, label, reason } = testStateWords(facts);
  const at = toDate(facts.calledFlakyAt);
  const called = at ? ` · called flaky ${isoUtc(at)}` : "";
  return `${STATE_CELL_ICON[state]} ${label}: ${reason}${called}`;
}
