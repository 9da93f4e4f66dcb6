import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";
import { context, packLines, section } from "./elements.ts";
import { permalink } from "./home-view.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { collectionUrl, runUrl, testUrl } from "./links.ts";
import { dateToken, link, mention, oneLine, plural } from "./mrkdwn.ts";

export type BrokenNowInput = {
  /** The channel's subscriptions, as their objects last stored them. */
  subscriptions: readonly Subscription[];
  appUrl: string;
  /** The workspace's URL, for links to each alert; null leaves them out. */
  teamUrl: string | null;
  /** When the engine last polled (null: not yet). */
  lastPollAt: string | null;
  /** Now: a collection "grows" when its alerts of the last 24 hours counted more sessions. */
  now: Date;
};

const DAY_MS = 24 * 60 * 60 * 1000;

const testName = (s: TestSubscription) => s.testName.trim() || `Test ${s.testId}`;

function failingLine(s: TestSubscription, teamUrl: string | null, appUrl: string): string {
  const streak = s.streak;
  if (!streak) return "";
  const first = streak.firstRun;
  const alert = permalink(teamUrl, s.channelId, streak.threadTs);
  const summary = first?.summary?.oneLineSummary
    ? ` — ${truncateMrkdwn(oneLine(first.summary.oneLineSummary), 200)}`
    : "";
  return [
    `• *${link(testUrl(appUrl, s.testId), testName(s))}* failing for ${plural(streak.failedRuns, "run")}`,
    first ? ` since ${dateToken(first.createdAt)}` : "",
    ` (last failed ${link(runUrl(appUrl, s.testId, streak.lastRunId), `#${streak.lastRunId}`)})`,
    summary,
    alert ? ` · ${link(alert, "the alert")}` : "",
    s.muted ? ` · :no_bell: muted by ${mention(s.muted.by)}` : "",
    s.snooze ? ` · :sleeping: snoozed by ${mention(s.snooze.by)}` : "",
  ].join("");
}

function collectionLine(s: CollectionSubscription, appUrl: string): string {
  return `• :rotating_light: ${link(collectionUrl(appUrl, s.collectionId), s.rootCause.trim() || `Collection ${s.collectionId}`)} came back after being resolved (${plural(s.alertedCount, "session")} at its last alert)`;
}

/**
 * Sessions an unresolved collection gained in the 24 hours before `now`, from the counts its
 * alerts saw (`counts`, the first being the count it grew from); 0 when none went out then.
 */
export function growthInDay(s: CollectionSubscription, now: Date): number {
  if (s.wasResolved) return 0;
  const since = now.getTime() - DAY_MS;
  const marks = s.counts ?? [];
  const recent = marks.filter((m) => Date.parse(m.at) >= since);
  const latest = recent.at(-1);
  if (!latest) return 0;
  const before = marks.filter((m) => Date.parse(m.at) < since).at(-1) ?? recent[0];
  return Math.max(0, latest.count - (before?.count ?? latest.count));
}

function growingLine(s: CollectionSubscription, grew: number, appUrl: string): string {
  const name = s.rootCause.trim() || `Collection ${s.collectionId}`;
  return `• :chart_with_upwards_trend: ${link(collectionUrl(appUrl, s.collectionId), name)} unresolved and growing: +${plural(grew, "session")} in the last 24 hours (${plural(s.alertedCount, "session")} at its last alert, ${dateToken(s.alertedAt)})`;
}

/**
 * "@Decipher what is broken right now?": the channel's failing tests (and regressed
 * collections) from what the bot stored at its last poll; it asks Decipher nothing.
 */
export function brokenNowMessage(input: BrokenNowInput): SlackMessage {
  const tests = input.subscriptions.filter((s): s is TestSubscription => s.kind === "test");
  const failing = tests.filter((s) => s.streak !== null && !s.paused);
  const regressed = input.subscriptions.filter(
    (s): s is CollectionSubscription => s.kind === "collection" && s.regressed && !s.wasResolved,
  );
  const growing = input.subscriptions
    .filter((s): s is CollectionSubscription => s.kind === "collection" && !s.paused && !s.regressed)
    .map((s) => ({ s, grew: growthInDay(s, input.now) }))
    .filter(({ grew }) => grew > 0);
  const collections = input.subscriptions.filter((s) => s.kind === "collection").length;
  const asOf = input.lastPollAt
    ? `As of the last poll, ${dateToken(input.lastPollAt)}.`
    : "No poll has run yet.";
  const paused = input.subscriptions.filter((s) => s.paused).length;
  const notes = [
    asOf,
    paused > 0 ? `${plural(paused, "subscription")} paused (see \`/decipher status\`).` : "",
    "`/decipher status` has the details.",
  ]
    .filter(Boolean)
    .join(" ");
  if (input.subscriptions.length === 0) {
    const text = "This channel watches nothing, so I know of nothing broken here.";
    return fitMessage({
      text,
      blocks: [section(`${text} \`/decipher subscribe test <id>\` watches a test.`)],
    });
  }
  if (failing.length === 0 && regressed.length === 0 && growing.length === 0) {
    const watched = [
      tests.length > 0 || collections === 0
        ? `${plural(tests.length, "watched test")}, none failing at its last run`
        : "",
      collections > 0
        ? `${plural(collections, "watched collection")}, none regressed or growing in the last 24 hours`
        : "",
    ].filter(Boolean);
    const text = `Nothing is failing here: ${watched.join("; ")}.`;
    return fitMessage({ text, blocks: [section(`:large_green_circle: ${text}`), context(notes)] });
  }
  const counts = [
    failing.length > 0 || (regressed.length === 0 && growing.length === 0)
      ? `${plural(failing.length, "test")} failing`
      : "",
    regressed.length > 0 ? `${plural(regressed.length, "collection")} regressed` : "",
    growing.length > 0 ? `${plural(growing.length, "collection")} growing` : "",
  ].filter(Boolean);
  const lead = `:red_circle: ${counts.join(", ")} in this channel:`;
  const lines = [
    ...failing.map((s) => failingLine(s, input.teamUrl, input.appUrl)),
    ...regressed.map((s) => collectionLine(s, input.appUrl)),
    ...growing.map(({ s, grew }) => growingLine(s, grew, input.appUrl)),
  ];
  const names = [
    ...failing.map((s) => oneLine(testName(s))),
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
