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
};

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
 * "@Decipher what is broken right now?": the channel's failing tests (and regressed
 * collections) from what the bot stored at its last poll; it asks Decipher nothing.
 */
export function brokenNowMessage(input: BrokenNowInput): SlackMessage {
  const tests = input.subscriptions.filter((s): s is TestSubscription => s.kind === "test");
  const failing = tests.filter((s) => s.streak !== null && !s.paused);
  const regressed = input.subscriptions.filter(
    (s): s is CollectionSubscription => s.kind === "collection" && s.regressed && !s.wasResolved,
  );
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
  if (failing.length === 0 && regressed.length === 0) {
    const text = `Nothing is failing here: ${plural(tests.length, "watched test")}, none failing at its last run.`;
    return fitMessage({ text, blocks: [section(`:large_green_circle: ${text}`), context(notes)] });
  }
  const lead = `:red_circle: ${plural(failing.length, "test")} failing in this channel${regressed.length > 0 ? `, ${plural(regressed.length, "collection")} regressed` : ""}:`;
  const lines = [
    ...failing.map((s) => failingLine(s, input.teamUrl, input.appUrl)),
    ...regressed.map((s) => collectionLine(s, input.appUrl)),
  ];
  return fitMessage({
    text: `${plural(failing.length, "test")} failing: ${failing.map((s) => oneLine(testName(s))).join(", ")}`,
    blocks: [
      section(lead),
      ...packLines(lines, 20, (n) => `_…and ${n} more: \`/decipher status\`_`),
      context(notes),
    ],
  });
}
