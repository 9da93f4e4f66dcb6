import type { TestPick } from "../model/ask/test-pick.ts";
import type { PeriodRuns } from "../model/period-runs.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { RunRecord } from "../model/run-record.ts";
import type { CollectionSubscription, TestSubscription } from "../model/subscription.ts";
import { type AskScope, SCOPE_WORDS } from "./ask-scope.ts";
import { recentGrowth, testName } from "./broken-now.ts";
import { context, packLines, section } from "./elements.ts";
import { runFacts } from "./failed-run-card.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { collectionUrl, testUrl } from "./links.ts";
import { dateToken, link, oneLine, plural } from "./mrkdwn.ts";
import { productionImpactBlocks } from "./production-impact-blocks.ts";
import { collectionCountLine } from "./subscription-state-lines.ts";
import { testStateLine } from "./test-state-line.ts";

/**
 * The answers to questions asked in words (src/model/ask/question.ts) that are not the
 * channel's failures (src/messages/failed-in-period.ts) or a person's sessions (sessions-reply.ts).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Did you mean …?" first when the question named the test only roughly. */
function unsureLead(asked: TestPick | null): string {
  return asked && !asked.sure && asked.name ? `Did you mean *${oneLine(asked.name)}*?\n` : "";
}

const named = (id: number, name: string | null) => oneLine(name?.trim() || `Test ${id}`);

/** "why did checkout fail?": the test's last failed run, as its alert shows it. */
export function lastFailureMessage(
  asked: TestPick,
  run: RunRecord | null,
  appUrl: string,
  /** What the test's page (`page:`) sees in production, when a subscription names it. */
  impact: ImpactResult | null = null,
): SlackMessage {
  const name = named(asked.id, asked.name);
  if (!run) {
    const text = `${name} has no failed run in Decipher's history.`;
    return fitMessage({ text, blocks: [section(`${unsureLead(asked)}:large_green_circle: ${text}`)] });
  }
  const summary = run.summary?.oneLineSummary;
  const lines = [
    `${unsureLead(asked)}:red_circle: *${link(testUrl(appUrl, asked.id), name)}* last failed ${dateToken(run.createdAt)}:`,
    runFacts(run, appUrl),
    summary ? `> ${truncateMrkdwn(oneLine(summary), 400)}` : "",
  ].filter(Boolean);
  return fitMessage({
    text: `${name} last failed in run #${run.id}`,
    blocks: [
      section(lines.join("\n")),
      ...(impact ? productionImpactBlocks({ impact, appUrl }) : []),
      context("The run's page has each step and its screenshots."),
    ],
  });
}

/** "is checkout flaky?": its state in the status's words, and the runs behind it. */
export function flakyMessage(
  asked: TestPick,
  sub: TestSubscription,
  day: { since: Date; runs: PeriodRuns | null },
  appUrl: string,
): SlackMessage {
  const name = testName(sub);
  const numbers = day.runs
    ? `${plural(day.runs.failures, "failure")} in ${plural(day.runs.runs, "run")} since ${dateToken(day.since)}.`
    : "";
  return fitMessage({
    text: `${name}: ${sub.stateFacts ? "its state" : "state not read yet"}`,
    blocks: [
      section(
        `${unsureLead(asked)}*${link(testUrl(appUrl, sub.testId), oneLine(name))}* ${testStateLine(sub.stateFacts ?? null)}\n${numbers}`,
      ),
      context(
        "Flaky: failures with passes in between. Broken: failing run after run. From the runs the bot saw.",
      ),
    ],
  });
}

/** A question about a test or collection this channel (or none of the person's) watches. */
export function notWatchedMessage(kind: "test" | "collection", id: number, scope: AskScope): SlackMessage {
  const text = `${SCOPE_WORDS[scope].doesNotWatch} ${kind} ${id}.`;
  return fitMessage({
    text,
    blocks: [section(`${text} \`/decipher subscribe ${kind} ${id}\` watches it here.`)],
  });
}

/** A question about one test that names none this channel watches. */
export function whichTestMessage(tests: readonly TestSubscription[], scope: AskScope): SlackMessage {
  const text = "Which test? Name it, or give its id.";
  const names = tests.slice(0, 10).map((s) => `• ${oneLine(testName(s))} (\`test ${s.testId}\`)`);
  return fitMessage({
    text,
    blocks: [
      section(
        tests.length > 0
          ? `${text} ${SCOPE_WORDS[scope].watches}:`
          : `${text} ${SCOPE_WORDS[scope].watchesNo} test yet.`,
      ),
      ...packLines(names, 3, (n) => `_…and ${n} more: \`/decipher list\`_`),
    ],
  });
}

function collectionAnswerLine(s: CollectionSubscription, appUrl: string, now: Date): string {
  const name = s.rootCause.trim() || `Collection ${s.collectionId}`;
  const growth = recentGrowth(s, now);
  const state = s.wasResolved
    ? "resolved"
    : growth
      ? `unresolved and growing: +${plural(growth.grew, "session")} since ${dateToken(growth.since)}`
      : `unresolved, not grown since ${dateToken(now.getTime() - DAY_MS)}`;
  return `• ${link(collectionUrl(appUrl, s.collectionId), truncateMrkdwn(oneLine(name), 200))} — ${state} (${collectionCountLine(s)})`;
}

/** "what's growing?", "collection 501?": the channel's collections (or the one), growing first. */
export function collectionsMessage(
  collections: readonly CollectionSubscription[],
  appUrl: string,
  now: Date,
  scope: AskScope,
): SlackMessage {
  if (collections.length === 0) {
    const text = `${SCOPE_WORDS[scope].watchesNo} collection.`;
    return fitMessage({
      text,
      blocks: [section(`${text} \`/decipher subscribe collection <id>\` watches one.`)],
    });
  }
  const growing = (s: CollectionSubscription) => (recentGrowth(s, now) ? 0 : 1);
  const sorted = [...collections].sort((a, b) => growing(a) - growing(b));
  const count = collections.filter((s) => growing(s) === 0).length;
  const lead = `${count} of ${plural(collections.length, "watched collection")} grew since ${dateToken(now.getTime() - DAY_MS)}:`;
  return fitMessage({
    text: lead,
    blocks: [
      section(lead),
      ...packLines(
        sorted.map((s) => collectionAnswerLine(s, appUrl, now)),
        10,
        (n) => `_…and ${n} more: \`/decipher status\`_`,
      ),
    ],
  });
}
