import {
  collectionsMessage,
  flakyMessage,
  lastFailureMessage,
  notWatchedMessage,
  whichTestMessage,
} from "../../messages/ask-replies.ts";
import { INDEX_UNREADABLE } from "../../messages/decipher-replies.ts";
import { failedInPeriodMessage } from "../../messages/failed-in-period.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { mentionHelpMessage } from "../../messages/mention-help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { refOf } from "../../model/alert-control.ts";
import { type Question, understand } from "../../model/ask/question.ts";
import type { TestPick } from "../../model/ask/test-pick.ts";
import type { ChannelIndex } from "../../model/channel-index.ts";
import { byKind } from "../../model/kind-facts.ts";
import { runRecord } from "../../model/run-record.ts";
import type { TestSubscription } from "../../model/subscription.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";
import { renderSessionsPage } from "./sessions-command.ts";

/** Test objects asked for their runs at once. */
const READS_AT_ONCE = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What an answer reads from: the channel asked in, as its index holds it. */
export type AskPlace = { deps: Deps; index: ChannelIndex; teamUrl: string | null };

const watchedTests = (place: AskPlace) => byKind(place.index.entries.map((e) => e.subscription)).test;

/** Each test asked about with its runs of the period, from its own object; null where it did not answer. */
async function runsOf(place: AskPlace, tests: readonly TestSubscription[], since: Date, until: Date) {
  return mapLimit(tests, READS_AT_ONCE, async (sub) => ({
    sub,
    runs: await place.deps.control.periodRuns(refOf(sub), since, until).catch(() => null),
  }));
}

async function failed(place: AskPlace, q: Extract<Question, { intent: "failed" }>): Promise<SlackMessage> {
  const { deps } = place;
  const all = watchedTests(place);
  const tests = q.test ? all.filter((s) => s.testId === q.test?.id) : all;
  if (q.test && tests.length === 0) return notWatchedMessage("test", q.test.id);
  const now = deps.now();
  return failedInPeriodMessage({
    tests: await runsOf(place, tests, q.period.since, q.period.until ?? now),
    collections: byKind(place.index.entries.map((e) => e.subscription)).collection,
    since: q.period.since,
    until: q.period.until,
    asked: q.test,
    appUrl: deps.config.decipherAppUrl,
    teamUrl: place.teamUrl,
    now,
  });
}

/** The test's last failed run, read from Decipher (one request). */
async function whyFailed(place: AskPlace, asked: TestPick): Promise<SlackMessage> {
  const { deps } = place;
  try {
    const page = await deps.vendor.listTestRuns(asked.id, { status: "failed", limit: 1 });
    const run = page.data[0];
    return lastFailureMessage(asked, run ? runRecord(run) : null, deps.config.decipherAppUrl);
  } catch (error) {
    return errorMessage(vendorErrorSentence(error));
  }
}

async function flaky(place: AskPlace, asked: TestPick): Promise<SlackMessage> {
  const sub = watchedTests(place).find((s) => s.testId === asked.id);
  if (!sub) return notWatchedMessage("test", asked.id);
  const now = place.deps.now();
  const since = new Date(now.getTime() - DAY_MS);
  const [day] = await runsOf(place, [sub], since, now);
  return flakyMessage(asked, sub, { since, runs: day?.runs ?? null }, place.deps.config.decipherAppUrl);
}

function collections(place: AskPlace, id: number | null): SlackMessage {
  const watched = byKind(place.index.entries.map((e) => e.subscription)).collection;
  const asked = id === null ? watched : watched.filter((s) => s.collectionId === id);
  if (id !== null && asked.length === 0) return notWatchedMessage("collection", id);
  return collectionsMessage(asked, place.deps.config.decipherAppUrl, place.deps.now());
}

async function sessions(
  place: AskPlace,
  q: Extract<Question, { intent: "sessions" }>,
): Promise<SlackMessage> {
  const search = {
    filter: q.user,
    ...(q.period ? { since: q.period.since } : {}),
    ...(q.period?.until ? { until: q.period.until } : {}),
  };
  try {
    return await renderSessionsPage(place.deps, search);
  } catch (error) {
    return errorMessage(vendorErrorSentence(error));
  }
}

/** The answer to a question asked in words, from the channel it was asked in. */
export async function answerQuestion(q: Question, place: AskPlace): Promise<SlackMessage> {
  switch (q.intent) {
    case "failed":
      return failed(place, q);
    case "why-failed":
      return q.test ? whyFailed(place, q.test) : whichTestMessage(watchedTests(place));
    case "flaky":
      return q.test ? flaky(place, q.test) : whichTestMessage(watchedTests(place));
    case "sessions":
      return sessions(place, q);
    case "collections":
      return collections(place, q.collectionId);
    case "help": {
      const watched = byKind(place.index.entries.map((e) => e.subscription));
      return mentionHelpMessage({
        tests: watched.test.map((s) => s.testName),
        collections: watched.collection.map((s) => s.collectionId),
      });
    }
  }
}

/** Where a question was asked: the workspace, the channel, and the workspace's Slack URL for links. */
export type AskedIn = { teamId: string; channelId: string; teamUrl: string | null };

/**
 * A question in words (`@Decipher …`, `/decipher ask …`), understood against the channel's own
 * tests and answered from what the channel watches; days counted in its digest's zone, else UTC.
 */
export async function answerInChannel(text: string, deps: Deps, where: AskedIn): Promise<SlackMessage> {
  const now = deps.now();
  const index = await deps.control.channelIndex(where.teamId, where.channelId, now).catch(() => null);
  if (!index) return errorMessage(INDEX_UNREADABLE);
  const tests = byKind(index.entries.map((e) => e.subscription)).test.map((s) => ({
    id: s.testId,
    name: s.testName,
  }));
  const question = understand(text, { tests, now, zone: index.digest?.zone ?? "UTC" });
  return answerQuestion(question, { deps, index, teamUrl: where.teamUrl });
}
