import type { TestInfo } from "../decipher/types.ts";
import { failedThenPassed, recoveryThreadReply } from "../messages/failed-run-card.ts";
import { flakyThreadReply } from "../messages/failure-meaning.ts";
import { withDeletedNote, withLateNote } from "../messages/late-note.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { testUrl } from "../messages/links.ts";
import { link } from "../messages/mrkdwn.ts";
import { passedSinceSubscribeMessage } from "../messages/passed-since-subscribe.ts";
import { streakReply } from "../messages/streak-reply.ts";
import type { FailureContext } from "../model/failure-context.ts";
import { flakyParent, testParent } from "./alert-parents.ts";
import type { TestMessage, TestStep } from "./test-step.ts";

/** What every message of one poll is rendered with: the test as read, and the reading time. */
export type RenderContext = { test: TestInfo; appUrl: string; now: Date; meaning: FailureContext | null };

/** The Block Kit message a post or an edit of `decideTestStep` sends. */
export function renderTestStep(
  step: Extract<TestStep, { kind: "post" } | { kind: "edit" }>,
  ctx: RenderContext,
): SlackMessage {
  const message = renderTestMessage(step.message, ctx);
  if (step.kind !== "post") return message;
  const noted = step.replacesDeleted ? withDeletedNote(message) : message;
  return step.lateSince ? withLateNote(noted, step.lateSince) : noted;
}

export function renderTestMessage(message: TestMessage, ctx: RenderContext): SlackMessage {
  const { test, appUrl, now } = ctx;
  switch (message.kind) {
    case "failure-alert": {
      const { sub, streak, recoveredBy, ping } = message;
      const card = shown(testParent(sub, streak, { test, appUrl, now, recoveredBy, ping }), message.kind);
      return message.passedNext ? failedThenPassed(card, test) : card;
    }
    case "flaky-alert":
      return shown(flakyParent(message.sub, message.flaky, { test, appUrl, now }), message.kind);
    case "streak-reply":
      return streakReply({
        test,
        runs: message.runs,
        failedRuns: message.failedRuns,
        recoveredBy: message.recoveredBy,
        named: message.named,
        appUrl,
        now,
      });
    case "recovery":
      return recoveryThreadReply({
        test,
        run: message.run,
        failedRuns: message.failedRuns,
        rerun: message.rerun,
        appUrl,
        now,
      });
    case "flaky-reply":
      return flakyThreadReply(test, message.run, ctx.meaning, appUrl, message.through);
    case "passed-since-subscribe":
      return passedSinceSubscribeMessage(test, message.run, message.was, appUrl);
    case "snooze-ended":
      return snoozeEnded(message, test, appUrl);
  }
}

/** A parent the engine decided to show always has a first run to show (src/model/open-alert.ts). */
function shown(message: SlackMessage | null, kind: string): SlackMessage {
  if (!message) throw new Error(`a ${kind} with no first run to show`);
  return message;
}

function snoozeEnded(
  message: Extract<TestMessage, { kind: "snooze-ended" }>,
  test: TestInfo,
  appUrl: string,
): SlackMessage {
  // Linked to the test: the summary may stand alone in the channel, with no open alert to read.
  const name = link(testUrl(appUrl, test.id), test.name || `Test ${test.id}`);
  const missed = message.missedFailures;
  const state = message.lastFailed ? "and its last run failed" : "and its last run passed";
  const text = `:sleeping: Snooze by <@${message.by}> ended: ${name} failed ${missed} more time${missed === 1 ? "" : "s"} while snoozed, ${state}.`;
  return { text, blocks: [] };
}
