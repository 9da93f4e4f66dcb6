import { byKind } from "../model/kind-facts.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";
import { factsOfSubscription, type TestStateFacts, testState } from "../model/test-state.ts";
import { context, packLines, section } from "./elements.ts";
import { permalink } from "./home-view.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { collectionUrl, runUrl, testUrl } from "./links.ts";
import { dateToken, link, mention, oneLine, plural } from "./mrkdwn.ts";
import { collectionCountLine } from "./subscription-state-lines.ts";
import { testStateLine } from "./test-state-line.ts";

export type BrokenNowInput = {
  /** The channel's subscriptions, as their objects last stored them. */
  subscriptions: readonly Subscription[];
  appUrl: string;
  /** The workspace's URL, for links to each alert; null leaves them out. */
  teamUrl: string | null;
  /** When the engine last polled (null: not yet). */
  lastPollAt: string | null;
  /** Now: a collection "grows" when its alerts of the last 24 hours counted more sessions; a day-old flaky call ends. */
  now: Date;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export const testName = (s: TestSubscription) => s.testName.trim() || `Test ${s.testId}`;

/**
 * The test's state when it is not passing, in the digest's and status's words: failing (or
 * broken, a new failure, failing on and off), or flaky with its last run failed. Null when it
 * passes, or when its state is not read yet.
 */
export function notPassingFacts(s: TestSubscription, now: Date): TestStateFacts | null {
  const facts = factsOfSubscription(s, now);
  if (!facts) return null;
  const state = testState(facts);
  return state === "failing" || (state === "flaky" && facts.trailingFailures > 0) ? facts : null;
}

export function failingLine(
  s: TestSubscription,
  facts: TestStateFacts,
  teamUrl: string | null,
  appUrl: string,
): string {
  const streak = s.streak;
  const first = streak?.firstRun;
  const alert = streak ? permalink(teamUrl, s.channelId, streak.threadTs) : null;
  const summary = first?.summary?.oneLineSummary
    ? ` — ${truncateMrkdwn(oneLine(first.summary.oneLineSummary), 200)}`
    : "";
  return [
    `• *${link(testUrl(appUrl, s.testId), testName(s))}* ${testStateLine(facts)}`,
    streak && first ? ` · alert open since ${dateToken(first.createdAt)}` : "",
    streak
      ? ` (last failed ${link(runUrl(appUrl, s.testId, streak.lastRunId), `#${streak.lastRunId}`)})`
      : "",
    summary,
    alert ? ` · ${link(alert, "the alert")}` : "",
    s.muted ? ` · :no_bell: muted by ${mention(s.muted.by)}` : "",
    s.snooze ? ` · :sleeping: snoozed by ${mention(s.snooze.by)}` : "",
  ].join("");
}

export function collectionLine(s: CollectionSubscription, appUrl: string): string {
  return `• :rotating_light: ${link(collectionUrl(appUrl, s.collectionId), s.rootCause.trim() || `Collection ${s.collectionId}`)} came back after being resolved (${collectionCountLine(s)})`;
}

/**
 * What an unresolved collection gained by its latest count of the 24 hours before `now`, and
 * from when: the last count before that day, or the first of it (as when it was subscribed
 * within the day). `since` is that count's time, so the answer names the true start of the
 * growth rather than "in the last 24 hours"; `until` is the latest count's, the last one a
 * post told, which a count read later (an unmute's) does not move. Null when no count of the
 * day grew.
 */
export function recentGrowth(
  s: CollectionSubscription,
  now: Date,
): { grew: number; since: string; until: string } | null {
  if (s.wasResolved) return null;
  const dayStart = now.getTime() - DAY_MS;
  const marks = s.counts ?? [];
  const recent = marks.filter((m) => Date.parse(m.at) >= dayStart);
  const latest = recent.at(-1);
  const before = marks.filter((m) => Date.parse(m.at) < dayStart).at(-1) ?? recent[0];
  if (!latest || !before) return null;
  const grew = latest.count - before.count;
  return grew > 0 ? { grew, since: before.at, until: latest.at } : null;
}

export function growingLine(
  s: CollectionSubscription,
  growth: { grew: number; since: string; until: string },
  appUrl: string,
): string {
  const name = s.rootCause.trim() || `Collection ${s.collectionId}`;
  return `• :chart_with_upwards_trend: ${link(collectionUrl(appUrl, s.collectionId), name)} unresolved and growing: +${plural(growth.grew, "session")} between ${dateToken(growth.since)} and ${dateToken(growth.until)} (${collectionCountLine(s)})`;
}

/** When the facts are from, what is paused, and where the details are. */
function notesOf(input: BrokenNowInput): string {
  const asOf = input.lastPollAt
    ? `As of the last poll, ${dateToken(input.lastPollAt)}.`
    : "No poll has run yet.";
  const paused = input.subscriptions.filter((s) => s.paused).length;
  return [
    asOf,
    paused > 0 ? `${plural(paused, "subscription")} paused (see \`/decipher status\`).` : "",
    "`/decipher status` has the details.",
  ]
    .filter(Boolean)
    .join(" ");
}

/** The answer when nothing is broken: what the channel watches, said so. */
function nothingFailing(tests: number, collections: number, notes: string): SlackMessage {
  const watched = [
    tests > 0 || collections === 0
      ? `${plural(tests, "watched test")}, none failing, broken, or flaky with its last run failed`
      : "",
    collections > 0
      ? `${plural(collections, "watched collection")}, none regressed or growing in the last 24 hours`
      : "",
  ].filter(Boolean);
  const text = `Nothing is failing here: ${watched.join("; ")}.`;
  return fitMessage({ text, blocks: [section(`:large_green_circle: ${text}`), context(notes)] });
}

/**
 * "@Decipher what is broken right now?": the channel's tests that are not passing, in the
 * digest's and status's words (`notPassingFacts`), and its regressed or growing collections,
 * from what the bot stored at its last poll; it asks Decipher nothing.
 */
export function brokenNowMessage(input: BrokenNowInput): SlackMessage {
  const { test: tests, collection: watched } = byKind(input.subscriptions);
  const failing = tests.flatMap((s) => {
    const facts = s.paused ? null : notPassingFacts(s, input.now);
    return facts ? [{ s, facts }] : [];
  });
  const regressed = watched.filter((s) => s.regressed && !s.wasResolved);
  const growing = watched
    .filter((s) => !s.paused && !s.regressed)
    .flatMap((s) => {
      const growth = recentGrowth(s, input.now);
      return growth ? [{ s, growth }] : [];
    });
  const collections = watched.length;
  const notes = notesOf(input);
  if (input.subscriptions.length === 0) {
    const text = "This channel watches nothing, so I know of nothing broken here.";
    return fitMessage({
      text,
      blocks: [section(`${text} \`/decipher subscribe test <id>\` watches a test.`)],
    });
  }
  if (failing.length === 0 && regressed.length === 0 && growing.length === 0)
    return nothingFailing(tests.length, collections, notes);
  const counts = [
    failing.length > 0 || (regressed.length === 0 && growing.length === 0)
      ? `${plural(failing.length, "test")} not passing`
      : "",
    regressed.length > 0 ? `${plural(regressed.length, "collection")} regressed` : "",
    growing.length > 0 ? `${plural(growing.length, "collection")} growing` : "",
  ].filter(Boolean);
  const lead = `:red_circle: ${counts.join(", ")} in this channel:`;
  const lines = [
    ...failing.map(({ s, facts }) => failingLine(s, facts, input.teamUrl, input.appUrl)),
    ...regressed.map((s) => collectionLine(s, input.appUrl)),
    ...growing.map(({ s, growth }) => growingLine(s, growth, input.appUrl)),
  ];
  const names = [
    ...failing.map(({ s }) => oneLine(testName(s))),
    ...[...regressed, ...growing.map(({ s }) => s)].map((s) => `collection ${s.collectionId}`),
  ];
  return fitMessage({
    text: `${counts.join(", ")}: ${names.join(", ")}`,
    blocks: [
      section(lead),
      ...packLines(lines, 20, (n) => `_…and ${n} more: \`/decipher status\`_`),
      context(notes),
    ],
  });
}
