import { impactVendorClient, productionImpact } from "../../engine/read-production-impact.ts";
import {
  collectionsMessage,
  flakyMessage,
  lastFailureMessage,
  notWatchedMessage,
  whichTestMessage,
} from "../../messages/ask-replies.ts";
import type { AskScope } from "../../messages/ask-scope.ts";
import { CHANNELS_UNCHECKED, INDEX_UNREADABLE } from "../../messages/decipher-replies.ts";
import { failedInPeriodMessage } from "../../messages/failed-in-period.ts";
import { errorMessage } from "../../messages/help.ts";
import type { SlackMessage } from "../../messages/limits.ts";
import { mentionHelpMessage } from "../../messages/mention-help.ts";
import { vendorErrorSentence } from "../../messages/vendor-error-message.ts";
import { refOf } from "../../model/alert-control.ts";
import { type Question, understand } from "../../model/ask/question.ts";
import type { TestPick } from "../../model/ask/test-pick.ts";
import { indexKeyOf } from "../../model/channel-index.ts";
import { byKind } from "../../model/kind-facts.ts";
import { runRecord } from "../../model/run-record.ts";
import type { Subscription, TestSubscription } from "../../model/subscription.ts";
import { personZone } from "../../slack-api/workspace-admin.ts";
import { withDeadline } from "../../util/deadline.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";
import { subscriptionsOfPerson } from "../person-subscriptions.ts";
import { renderSessionsPage } from "./sessions-command.ts";

/** Test objects asked for their runs at once. */
const READS_AT_ONCE = 8;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What an answer reads from: the subscriptions of the channel asked in (its index), or of the
 * person's channels (a DM, the assistant pane), and which of the two it is.
 */
export type AskPlace = {
  deps: Deps;
  subscriptions: readonly Subscription[];
  scope: AskScope;
  teamUrl: string | null;
};

const watched = (place: AskPlace) => byKind(place.subscriptions);
const watchedTests = (place: AskPlace) => watched(place).test;

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
  if (q.test && tests.length === 0) return notWatchedMessage("test", q.test.id, place.scope);
  const now = deps.now();
  return failedInPeriodMessage({
    tests: await runsOf(place, tests, q.period.since, q.period.until ?? now),
    collections: watched(place).collection,
    since: q.period.since,
    until: q.period.until,
    asked: q.test,
    appUrl: deps.config.decipherAppUrl,
    teamUrl: place.teamUrl,
    now,
    scope: place.scope,
  });
}

/**
 * The test's last failed run, read from Decipher (one request), and, when a subscription here
 * names the test's page (`page:`), what that page sees in production, as its alerts show it
 * (two requests more at most; a garnish that never fails the answer).
 */
async function whyFailed(place: AskPlace, asked: TestPick): Promise<SlackMessage> {
  const { deps } = place;
  try {
    const found = await deps.vendor.listTestRuns(asked.id, { status: "failed", limit: 1 });
    const run = found.data[0];
    const page = watchedTests(place).find((s) => s.testId === asked.id && s.options?.page)?.options?.page;
    const impact =
      run && page
        ? await productionImpact(impactVendorClient(deps.config, deps.budget), {
            page,
            collections: watched(place).collection,
            now: deps.now(),
            budget: deps.budget,
          })
        : null;
    return lastFailureMessage(asked, run ? runRecord(run) : null, deps.config.decipherAppUrl, impact);
  } catch (error) {
    return errorMessage(vendorErrorSentence(error));
  }
}

async function flaky(place: AskPlace, asked: TestPick): Promise<SlackMessage> {
  const sub = watchedTests(place).find((s) => s.testId === asked.id);
  if (!sub) return notWatchedMessage("test", asked.id, place.scope);
  const now = place.deps.now();
  const since = new Date(now.getTime() - DAY_MS);
  const [day] = await runsOf(place, [sub], since, now);
  return flakyMessage(asked, sub, { since, runs: day?.runs ?? null }, place.deps.config.decipherAppUrl);
}

function collections(place: AskPlace, id: number | null): SlackMessage {
  const all = watched(place).collection;
  const asked = id === null ? all : all.filter((s) => s.collectionId === id);
  if (id !== null && asked.length === 0) return notWatchedMessage("collection", id, place.scope);
  return collectionsMessage(asked, place.deps.config.decipherAppUrl, place.deps.now(), place.scope);
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
      return q.test ? whyFailed(place, q.test) : whichTestMessage(watchedTests(place), place.scope);
    case "flaky":
      return q.test ? flaky(place, q.test) : whichTestMessage(watchedTests(place), place.scope);
    case "sessions":
      return sessions(place, q);
    case "collections":
      return collections(place, q.collectionId);
    case "help": {
      const { test, collection } = watched(place);
      return mentionHelpMessage(
        {
          tests: test.map((s) => s.testName),
          collections: collection.map((s) => s.collectionId),
        },
        place.scope,
      );
    }
  }
}

/**
 * Where a question was asked: the workspace, the channel, the workspace's Slack URL for links,
 * and who asked (whose "today" it is), when known.
 */
export type AskedIn = { teamId: string; channelId: string; teamUrl: string | null; userId?: string };

/** How long an answer waits for users.info's zone: the second the guest check gives it (src/handlers/guests.ts). */
const ZONE_WAIT_MS = 1000;

/** The asker's zone (users.info); null when Slack is slower than that or cannot say. */
function zoneOf(deps: Deps, userId: string | undefined): Promise<string | null> {
  if (!userId) return Promise.resolve(null);
  return withDeadline(personZone(deps.slack, userId), ZONE_WAIT_MS, () => null);
}

/** Told the question once it is understood, before its answer is read (the assistant pane's status). */
export type OnQuestion = (q: Question) => Promise<void>;

/** The question in `text`, understood against the tests `place` watches, and its answer. */
async function understood(
  text: string,
  place: AskPlace,
  zone: string,
  onQuestion?: OnQuestion,
): Promise<SlackMessage> {
  const tests = watchedTests(place).map((s) => ({ id: s.testId, name: s.testName }));
  const question = understand(text, { tests, now: place.deps.now(), zone });
  await onQuestion?.(question);
  return answerQuestion(question, place);
}

/**
 * A question in words (`@Decipher …`, `/decipher ask …`), understood against the channel's own
 * tests and answered from what the channel watches; days counted where the asker is (their Slack
 * time zone), else in the channel's digest zone, else UTC.
 */
export async function answerInChannel(text: string, deps: Deps, where: AskedIn): Promise<SlackMessage> {
  const [index, zone] = await Promise.all([
    deps.control.channelIndex(where.teamId, where.channelId, deps.now()).catch(() => null),
    zoneOf(deps, where.userId),
  ]);
  if (!index) return errorMessage(INDEX_UNREADABLE);
  const subscriptions = index.entries.map((e) => e.subscription);
  const place = { deps, subscriptions, scope: "channel" as const, teamUrl: where.teamUrl };
  return understood(text, place, zone ?? index.digest?.zone ?? "UTC");
}

/** Who asked in a DM or the assistant pane: the workspace, the person, the workspace's Slack URL. */
export type AskedBy = { teamId: string; userId: string; teamUrl: string | null };

/** The same test or collection watched in two of the person's channels is one answer line. */
export function onceEach(subscriptions: readonly Subscription[]): Subscription[] {
  const seen = new Set<string>();
  return subscriptions.filter((s) => {
    const key = indexKeyOf(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A question asked in a DM or the assistant pane: answered from the channels the bot watches that
 * the person is in (what their App Home shows, src/handlers/person-subscriptions.ts), never the
 * workspace's other channels; days counted where the person is, else in the first of those
 * channels' digest zones, else UTC.
 */
export async function answerForPerson(
  text: string,
  deps: Deps,
  by: AskedBy,
  onQuestion?: OnQuestion,
): Promise<SlackMessage> {
  const [theirs, zone] = await Promise.all([
    subscriptionsOfPerson(deps, by.teamId, by.userId),
    zoneOf(deps, by.userId),
  ]);
  if (theirs.unchecked) return errorMessage(CHANNELS_UNCHECKED);
  const place = {
    deps,
    subscriptions: onceEach(theirs.subscriptions),
    scope: "person" as const,
    teamUrl: by.teamUrl,
  };
  return understood(text, place, zone ?? theirs.digests[0]?.zone ?? "UTC", onQuestion);
}
