import type { IssueCollection, TestInfo } from "../decipher/types.ts";
import type { WeekTestFigures } from "../model/weekly-figures.ts";
import { dayLabel, linkCell, seriesChart, sparkline, table, textCell, withAlternative } from "./charts.ts";
import {
  type DigestTestState,
  moreCell,
  moreLine,
  type UnreadCollection,
  unreadCollectionLine,
} from "./digest-message.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type MessageBlock, type SlackMessage } from "./limits.ts";
import { testUrl } from "./links.ts";
import { bold, code, dateToken, escapeMrkdwn, link, oneLine, plainLine, plural } from "./mrkdwn.ts";
import type { TableCell } from "./rich-blocks.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";
import { STATE_CELL_ICON } from "./test-state-line.ts";

/**
 * The weekly report of a channel (`/decipher weekly mon 09:00`): the week's failures and
 * recoveries per test, the flakiest tests, the collections that grew or regressed, and
 * production impact (appended by the engine). Charts where a chart says it better, each with
 * its text alternative; the tests as a table.
 */

export type WeeklyTestLine = {
  test: TestInfo;
  state: DigestTestState;
  figures: WeekTestFigures;
  /** The read stopped at its page cap: the figures are a floor. */
  capped: boolean;
  /** Decipher did not answer for this test. */
  unknown?: boolean;
};

export type WeeklyCollectionLine = {
  collection: IssueCollection;
  /** Sessions with issues this week; `atLeast` when the read stopped at its page cap. */
  newSessions: { count: number; atLeast: boolean };
  /** Where `newSessions` is counted from (ISO): seven days before the report. */
  since: string;
  /** Resolved, and back with new sessions. */
  regressed: boolean;
};

export type WeeklyInput = {
  /** The week's local dates, oldest first: the report covers these 7 days. */
  days: readonly string[];
  zone: string;
  tests: readonly WeeklyTestLine[];
  collections: readonly WeeklyCollectionLine[];
  /** Watched collections Decipher did not answer for: named all the same. */
  unreadCollections?: readonly UnreadCollection[];
  /** Tests in the flakiest list (src/model/weekly-figures.ts `flakiest`). */
  flakiest: readonly WeeklyTestLine[];
  appUrl: string;
};

const STATE = Object.fromEntries(
  Object.entries(STATE_CELL_ICON).map(([state, icon]) => [state, `${icon} ${state}`]),
) as Record<DigestTestState, string>;

const floor = (n: number, capped: boolean) => `${n.toLocaleString("en-US")}${capped ? "+" : ""}`;
const rate = (f: WeekTestFigures) =>
  f.settled > 0 ? `${Math.round((100 * (f.settled - f.failures)) / f.settled)} %` : "–";
/** The name as written, on one line: `link()` escapes it for mrkdwn, and a table cell is literal. */
const name = (t: WeeklyTestLine) => plainLine(t.test.name) || `Test ${t.test.id}`;

function testLine(t: WeeklyTestLine, appUrl: string): string {
  const f = t.figures;
  if (t.unknown)
    return `• ${link(testUrl(appUrl, t.test.id), name(t))} · Decipher did not answer for this test`;
  return `• ${link(testUrl(appUrl, t.test.id), name(t))} · ${STATE[t.state]} · ${plural(f.failures, "failure")}, ${plural(f.recoveries, "recovery", "recoveries")} in ${floor(f.settled, t.capped)} runs · ${rate(f)} passed`;
}

function runsPerDay(input: WeeklyInput): MessageBlock[] {
  const sum = (date: string, key: "passed" | "failed") =>
    input.tests.reduce((n, t) => n + (t.figures.perDay[date]?.[key] ?? 0), 0);
  const passed = input.days.map((d) => sum(d, "passed"));
  const failed = input.days.map((d) => sum(d, "failed"));
  if (passed.every((n) => n === 0) && failed.every((n) => n === 0)) return [];
  const chart = seriesChart({
    id: "chart_week_runs",
    title: "Runs per day this week",
    type: "bar",
    categories: input.days.map(dayLabel),
    series: [
      { name: "Passed", values: passed },
      { name: "Failed", values: failed },
    ],
    yLabel: "runs",
  });
  return withAlternative(chart, [
    context(
      `${bold("Runs per day")} (oldest first): passed ${sparkline(passed)} · failed ${sparkline(failed)}`,
    ),
  ]);
}

function collectionsBlocks(input: WeeklyInput): MessageBlock[] {
  const unread = (input.unreadCollections ?? []).map((c) => unreadCollectionLine(c, input.appUrl));
  if (input.collections.length + unread.length === 0)
    return [section("_No issue collections watched in this channel._")];
  const sorted = [...input.collections].sort(
    (a, b) => Number(b.regressed) - Number(a.regressed) || b.newSessions.count - a.newSessions.count,
  );
  const lines = sorted.map((c) => {
    const what = c.regressed
      ? ":rotating_light: regressed"
      : c.newSessions.count > 0
        ? ":chart_with_upwards_trend: grew"
        : c.collection.isResolved
          ? ":large_green_circle: resolved"
          : "no new sessions";
    const path = c.collection.shortenedPath ? ` ${code(c.collection.shortenedPath)}` : "";
    // The count names its start: an alert's "+N since" counts from that alert, and reads as
    // another number, not a contradiction (src/messages/collection-card.ts `countsLine`).
    const grew = `+${floor(c.newSessions.count, c.newSessions.atLeast)} new sessions since ${dateToken(c.since)}`;
    return `• ${bold(c.collection.rootCause || `Issue collection #${c.collection.id}`)}${path} · ${what} · ${grew} (${plural(c.collection.sessionCount, "session")} in all)`;
  });
  const grown = sorted.filter((c) => c.newSessions.count > 0).slice(0, SLACK_LIMITS.chartPoints);
  // One collection's bar says no more than its line: a chart compares two or more.
  const chart =
    grown.length > 1
      ? seriesChart({
          id: "chart_week_collections",
          title: "New sessions this week, per collection",
          type: "bar",
          categories: grown.map((c) => `#${c.collection.id}`),
          series: [{ name: "New sessions", values: grown.map((c) => c.newSessions.count) }],
          yLabel: "sessions",
        })
      : null;
  // The lines already give every count: the chart needs no other alternative.
  return [
    ...packLines([...lines, ...unread], 10, moreLine("more collection")),
    ...withAlternative(chart, []),
  ];
}

function testsTable(input: WeeklyInput): MessageBlock[] {
  const sorted = [...input.tests].sort(
    (a, b) => b.figures.failures - a.figures.failures || a.test.name.localeCompare(b.test.name),
  );
  const room = SLACK_LIMITS.tableRows - 1;
  const shown = sorted.length > room ? sorted.slice(0, room - 1) : sorted;
  const rows: TableCell[][] = shown.map((t) => [
    linkCell(testUrl(input.appUrl, t.test.id), name(t)),
    textCell(t.unknown ? STATE.unknown : STATE[t.state]),
    textCell(t.unknown ? "–" : floor(t.figures.settled, t.capped)),
    textCell(t.unknown ? "–" : String(t.figures.failures)),
    textCell(t.unknown ? "–" : String(t.figures.recoveries)),
    textCell(t.unknown ? "–" : rate(t.figures)),
  ]);
  if (shown.length < sorted.length)
    rows.push([
      textCell(moreCell(sorted.length - shown.length, "more test")),
      ...[1, 2, 3, 4, 5].map(() => textCell("–")),
    ]);
  return withAlternative(
    table("table_week_tests", ["Test", "State", "Runs", "Failures", "Recoveries", "Pass rate"], rows, [
      { is_wrapped: true },
      {},
      { align: "right" },
      { align: "right" },
      { align: "right" },
      { align: "right" },
    ]),
    packLines(
      sorted.map((t) => testLine(t, input.appUrl)),
      20,
      moreLine("more test"),
    ),
  );
}

export function weeklyMessage(input: WeeklyInput): SlackMessage {
  const first = input.days[0] ?? "";
  const last = input.days.at(-1) ?? "";
  // The engine's own local dates; escaped all the same, as every text this builder is handed.
  const period = oneLine(`${dayLabel(first)} – ${dayLabel(last)}`);
  const known = input.tests.filter((t) => !t.unknown);
  const failures = known.reduce((n, t) => n + t.figures.failures, 0);
  const recoveries = known.reduce((n, t) => n + t.figures.recoveries, 0);
  const flaky = input.flakiest.map(
    (t) =>
      `• ${link(testUrl(input.appUrl, t.test.id), name(t))} · flipped ${plural(t.figures.flips, "time")}: ${plural(t.figures.failures, "failure")} in ${floor(t.figures.settled, t.capped)} runs`,
  );
  const summary =
    input.tests.length > 0
      ? `${bold("Tests")}: ${plural(failures, "failed run")} and ${plural(recoveries, "recovery", "recoveries")} across ${plural(input.tests.length, "test")}.`
      : `${bold("Tests")}: _none watched in this channel._`;
  return fitMessage({
    text: `Weekly Decipher report, ${period}: ${plural(failures, "failed run")}, ${plural(recoveries, "recovery", "recoveries")}, ${plural(input.collections.filter((c) => c.newSessions.count > 0).length, "collection")} grew`,
    blocks: [
      header(`:calendar: Weekly Decipher report — ${period}`),
      context(`The last 7 days · ${escapeMrkdwn(oneLine(input.zone))}`),
      section(summary),
      ...runsPerDay(input),
      section(
        `${bold("Flakiest tests")}\n${flaky.length > 0 ? flaky.join("\n") : "_No test failed and recovered twice this week._"}`,
      ),
      section(bold("Issue collections")),
      ...collectionsBlocks(input),
      ...(input.tests.length > 0 ? [section(bold("Tests this week")), ...testsTable(input)] : []),
    ],
  });
}
