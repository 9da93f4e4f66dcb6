import type { TestPick } from "../model/ask/test-pick.ts";
import type { PeriodRuns } from "../model/period-runs.ts";
import type { CollectionSubscription, TestSubscription } from "../model/subscription.ts";
import { type AskScope, SCOPE_WORDS } from "./ask-scope.ts";
import {
  collectionLine,
  failingLine,
  growingLine,
  notPassingFacts,
  recentGrowth,
  testName,
} from "./broken-now.ts";
import { context, packLines, section } from "./elements.ts";
import { permalink } from "./home-view.ts";
import { fitMessage, type SlackMessage, truncateMrkdwn } from "./limits.ts";
import { runUrl, testUrl } from "./links.ts";
import { dateToken, link, oneLine, plural } from "./mrkdwn.ts";
import { testStateLine } from "./test-state-line.ts";

export type FailedInPeriodInput = {
  /** The channel's tests, each with its runs of the period (null: its object did not answer). */
  tests: readonly { sub: TestSubscription; runs: PeriodRuns | null }[];
  /** The channel's collections: what grows is told too, unless one test was asked about. */
  collections: readonly CollectionSubscription[];
  since: Date;
  /** Null: up to now. */
  until: Date | null;
  /** The test the question named; unsure asks "Did you mean …?" first. */
  asked: TestPick | null;
  appUrl: string;
  teamUrl: string | null;
  now: Date;
  scope: AskScope;
};

/** The period in date tokens, so the answer stays true when read tomorrow. */
const periodWords = (since: Date, until: Date | null) =>
  until ? `between ${dateToken(since)} and ${dateToken(until)}` : `since ${dateToken(since)}`;

function failedLine(s: TestSubscription, runs: PeriodRuns, input: FailedInPeriodInput): string {
  const last = runs.lastFailed;
  const streak = s.streak;
  const alert = streak ? permalink(input.teamUrl, s.channelId, streak.threadTs) : null;
  const summary = streak?.firstRun?.summary?.oneLineSummary;
  const now = s.paused ? null : notPassingFacts(s, input.now);
  return [
    `• *${link(testUrl(input.appUrl, s.testId), testName(s))}* failed ${runs.failures} of ${plural(runs.runs, "run")}`,
    last
      ? ` · last ${link(runUrl(input.appUrl, s.testId, last.runId), `#${last.runId}`)} ${dateToken(last.at)}`
      : "",
    // The answer stays in the thread: its state says when it was true, not "now".
    now ? ` · ${testStateLine(now)} (as of ${dateToken(input.now)})` : "",
    summary ? ` — ${truncateMrkdwn(oneLine(summary), 200)}` : "",
    alert ? ` · ${link(alert, "the alert")}` : "",
  ].join("");
}

/** Tests that did not fail in the period but are not passing yet (broken since before it), in the status's words. */
function stillFailing(input: FailedInPeriodInput, failed: ReadonlySet<TestSubscription>): string[] {
  const lines = input.tests.flatMap(({ sub }) => {
    const facts = failed.has(sub) || sub.paused ? null : notPassingFacts(sub, input.now);
    return facts ? [failingLine(sub, facts, input.teamUrl, input.appUrl)] : [];
  });
  return lines.length > 0 ? ["*Not passing since before then:*", ...lines] : [];
}

function collectionLines(input: FailedInPeriodInput): string[] {
  if (input.asked) return [];
  const regressed = input.collections.filter((s) => s.regressed && !s.wasResolved);
  const growing = input.collections.flatMap((s) => {
    const growth = s.paused || s.regressed ? null : recentGrowth(s, input.now);
    return growth ? [growingLine(s, growth, input.appUrl)] : [];
  });
  return [...regressed.map((s) => collectionLine(s, input.appUrl)), ...growing];
}

/** The lead when nothing failed: the test asked about, or the channel's tests. */
function noneFailed(input: FailedInPeriodInput, read: number, unread: number): string {
  const period = periodWords(input.since, input.until);
  const one = input.asked && input.tests[0];
  if (one) {
    const runs = one.runs?.runs ?? 0;
    return one.runs === null
      ? `:white_circle: I could not read the runs of *${oneLine(testName(one.sub))}* just now; try again in a minute.`
      : `:large_green_circle: *${oneLine(testName(one.sub))}* has not failed ${period}: ${runs > 0 ? `${plural(runs, "run")}, all passed` : "no run finished"}.`;
  }
  const notRead = unread > 0 ? ` (${plural(unread, "test")} could not be read just now)` : "";
  return `:large_green_circle: ${SCOPE_WORDS[input.scope].testsOf} failed ${period}: ${plural(read, "test")} watched${notRead}.`;
}

/**
 * "@Decipher what failed today?" and "is checkout broken?": each test of the channel (or the one
 * named) that failed in the period, from its own run ledger, so a test whose last run passed
 * still shows its failures, and, for the whole channel, its regressed and growing collections.
 */
export function failedInPeriodMessage(input: FailedInPeriodInput): SlackMessage {
  const failed = input.tests.flatMap(({ sub, runs }) => (runs && runs.failures > 0 ? [{ sub, runs }] : []));
  const unread = input.tests.filter((t) => t.runs === null).length;
  const collections = collectionLines(input);
  const unsure =
    input.asked && !input.asked.sure && input.asked.name
      ? [section(`Did you mean *${oneLine(input.asked.name)}*?`)]
      : [];
  const lead =
    failed.length > 0
      ? `:red_circle: ${plural(failed.length, "test")} failed ${periodWords(input.since, input.until)}:`
      : noneFailed(input, input.tests.length - unread, unread);
  const lines = failed.map(({ sub, runs }) => failedLine(sub, runs, input));
  const before = stillFailing(input, new Set(failed.map(({ sub }) => sub)));
  const names = failed.map(({ sub, runs }) => `${oneLine(testName(sub))} (${runs.failures} failed)`);
  return fitMessage({
    text:
      failed.length > 0 ? `${plural(failed.length, "test")} failed: ${names.join(", ")}` : "No test failed",
    blocks: [
      ...unsure,
      section(lead),
      ...packLines(
        [...lines, ...before, ...collections],
        20,
        (n) => `_…and ${n} more: \`/decipher status\`_`,
      ),
      context("Counted from the runs the bot saw of each test. `/decipher status` has the details."),
    ],
  });
}
