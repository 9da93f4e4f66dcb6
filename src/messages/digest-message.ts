import type { IssueCollection, TestInfo } from "../decipher/types.ts";
import type { DigestDay } from "../model/digest-history.ts";
import type { TestState, TestStateFacts } from "../model/test-state.ts";
import type { Muted, Snooze } from "../model/triage-state.ts";
import { snoozeEnd } from "./alert-status.ts";
import { linkCell, table, textCell, withAlternative } from "./charts.ts";
import { chartsNotYet, passRatePerDayChart, sessionsPerDayChart } from "./digest-charts.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { collectionUrl, testUrl } from "./links.ts";
import {
  bold,
  code,
  dateToken,
  escapeMrkdwn,
  isoUtc,
  link,
  mention,
  oneLine,
  plainLine,
  plural,
  toDate,
} from "./mrkdwn.ts";
import type { TableCell } from "./rich-blocks.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";
import { STATE_CELL_ICON, STATE_ICON, testStateCell, testStateLine } from "./test-state-line.ts";

/** A test's state in the digest, named like the alerts name it (`testState`, src/model/test-state.ts). */
export type DigestTestState = TestState;

/**
 * A 24-hour figure read from Decipher: `atLeast` when the reading stopped at a page cap, so
 * the count is a lower bound ("50+").
 */
export type Count24h = { count: number; atLeast: boolean };

export type DigestCollection = {
  collection: IssueCollection;
  /**
   * Sessions of this collection in the 24 hours before the digest (the vendor's collection
   * sessions with `since` = now − 24 h, counted); null when Decipher could not say.
   */
  newSessions24h?: Count24h | null;
  /** Muted in this channel: its line says so (who, when), since it posts nothing. */
  muted?: Muted | null;
  /** Snoozed in this channel now: its line says so (who, until when). */
  snoozed?: Snooze | null;
};

export type DigestTestLine = {
  test: TestInfo;
  runs24h: number;
  failures24h: number;
  /** 0…1, null without runs. */
  passRate: number | null;
  state: DigestTestState;
  /**
   * What the bot knows of the test's state: the line says it in the words status and Home
   * use (src/messages/test-state-line.ts). Absent when the test's object did not answer.
   */
  facts?: TestStateFacts | null;
  /** Muted in this channel: its line says so (who, when), since it posts nothing. */
  muted?: Muted | null;
  /** Snoozed in this channel now: its line says so (who, until when). */
  snoozed?: Snooze | null;
};

export type DigestInput = {
  /** Defaults to "Daily Decipher digest". */
  title?: string;
  /** The channel's local date, e.g. "2026-02-16". */
  date: string;
  /** IANA zone the digest is scheduled in. */
  zone: string;
  collections: DigestCollection[];
  /**
   * Watched collections Decipher did not answer for: named all the same, so the digest never
   * reads as if the channel did not watch them.
   */
  unreadCollections?: readonly UnreadCollection[];
  tests: DigestTestLine[];
  /**
   * The channel's daily figures, oldest first, today's last (src/model/digest-history.ts):
   * what the charts draw. Without two days of them there are no charts.
   */
  history?: readonly DigestDay[];
  appUrl: string;
  now: Date;
};

/** A watched collection whose figures could not be read: its id and the name the channel knows it by. */
export type UnreadCollection = { id: number; name: string; muted?: Muted | null };

/** Each list gets a bounded number of sections; the rest is counted, not dropped silently. */
const SECTIONS_PER_LIST = 20;

/** "+7 in 24 h", "50+ in 24 h", or "24 h change unknown". */
export function collectionChange(line: DigestCollection): string {
  const recent = line.newSessions24h;
  if (recent)
    return `${recent.count > 0 ? "+" : ""}${recent.count.toLocaleString("en-US")}${recent.atLeast ? "+" : ""} in 24 h`;
  return "24 h change unknown";
}

/** What sorts a collection up the list: its 24-hour growth. */
const growthOf = (line: DigestCollection) => line.newSessions24h?.count ?? 0;

const mutedAt = (muted: Muted) => {
  const at = toDate(muted.at);
  return at ? isoUtc(at) : "";
};
const mutedPart = (muted: Muted | null | undefined) =>
  muted ? ` · :no_bell: muted by ${mention(muted.by)} ${dateToken(muted.at)}` : "";
const snoozedPart = (snoozed: Snooze | null | undefined) =>
  snoozed ? ` · :sleeping: snoozed by ${mention(snoozed.by)} ${snoozeEnd(snoozed)}` : "";
/** The same as literal text (a table cell): a timed snooze's end in UTC. */
const snoozedCell = (snoozed: Snooze | null | undefined) => {
  if (!snoozed) return "";
  const until = toDate(snoozed.until);
  return ` · snoozed ${snoozed.choice.kind === "for" && until ? `until ${isoUtc(until)}` : snoozeEnd(snoozed)}`;
};

function collectionLine(line: DigestCollection, appUrl: string): string {
  const c = line.collection;
  const path = c.shortenedPath ? ` ${code(c.shortenedPath)}` : "";
  return `• *${link(collectionUrl(appUrl, c.id), c.rootCause.trim() || `Issue collection #${c.id}`)}*${path} · ${plural(c.sessionCount, "session")} (${collectionChange(line)}) · ${plural(c.errorCount, "error")} · ${plural(c.estimatedUsers, "user")} · ${c.isResolved ? "resolved" : "unresolved"}${mutedPart(line.muted)}${snoozedPart(line.snoozed)}`;
}

/** The line of a collection Decipher did not answer for (the digest's and the weekly report's). */
export function unreadCollectionLine(c: UnreadCollection, appUrl: string): string {
  return `• *${link(collectionUrl(appUrl, c.id), c.name.trim() || `Issue collection #${c.id}`)}* · Decipher did not answer for this collection${mutedPart(c.muted)}`;
}

const percent = (rate: number | null) =>
  rate === null || !Number.isFinite(rate) ? null : `${Math.round(rate * 100)} %`;

function testLine(t: DigestTestLine, appUrl: string): string {
  const shown = percent(t.passRate);
  const rate = shown === null ? "no runs" : `${shown} passed`;
  const state = t.facts ? testStateLine(t.facts) : `${STATE_ICON[t.state] ?? STATE_ICON.unknown} ${t.state}`;
  return `• ${link(testUrl(appUrl, t.test.id), t.test.name || `Test ${t.test.id}`)} · ${state}${olderStreak(t)} · ${plural(t.runs24h, "run")}, ${plural(t.failures24h, "failure")} · ${rate}${mutedPart(t.muted)}${snoozedPart(t.snoozed)}`;
}

/** The state cell: the same words as the line, as literal text. */
const stateCell = (t: DigestTestLine) =>
  `${t.facts ? testStateCell(t.facts) : `${STATE_CELL_ICON[t.state] ?? STATE_CELL_ICON.unknown} ${t.state}`}${olderStreak(t)}`;

/**
 * "failed 5 runs in a row" beside 4 failures in the day's columns reads as a contradiction:
 * the row says where the rest of the streak is.
 */
const olderStreak = (t: DigestTestLine) =>
  t.facts && t.facts.trailingFailures > t.failures24h ? " · its first failures were before these 24 h" : "";

/** Failing first, then flaky: the rows that need someone come first. */
const STATE_ORDER: Record<DigestTestState, number> = {
  failing: 0,
  flaky: 1,
  running: 2,
  unknown: 3,
  passing: 4,
};

/** Where a report's lists are whole: what a list leaves out, it says how many and where they are. */
const WHERE_THE_REST_ARE = "/decipher status lists every one";
/** "…and 52 more tests: /decipher status lists every one", as plain text (a table cell). */
export const moreCell = (n: number, what: string) => `…and ${plural(n, what)}: ${WHERE_THE_REST_ARE}`;
/** The same as mrkdwn, for a list's last line. */
export const moreLine = (what: string) => (n: number) =>
  `_…and ${plural(n, what)}: ${code("/decipher status")} lists every one_`;

/** Name, state, runs, failures and pass rate of each test as a table; its lines where tables are not shown. */
function testsTable(tests: readonly DigestTestLine[], appUrl: string) {
  const sorted = [...tests].sort((a, b) => (STATE_ORDER[a.state] ?? 9) - (STATE_ORDER[b.state] ?? 9));
  const room = SLACK_LIMITS.tableRows - 1;
  const shown = sorted.length > room ? sorted.slice(0, room - 1) : sorted;
  const rows: TableCell[][] = shown.map((t) => [
    // A table cell is literal text, not mrkdwn: the name goes in as written.
    linkCell(testUrl(appUrl, t.test.id), plainLine(t.test.name) || `Test ${t.test.id}`),
    // A cell is plain text (no mention, no date token): when, in UTC; who is in status and on Home.
    textCell(`${stateCell(t)}${t.muted ? ` · muted ${mutedAt(t.muted)}` : ""}${snoozedCell(t.snoozed)}`),
    textCell(String(t.runs24h)),
    textCell(String(t.failures24h)),
    textCell(percent(t.passRate) ?? "–"),
  ]);
  if (shown.length < sorted.length)
    rows.push([
      textCell(moreCell(sorted.length - shown.length, "more test")),
      ...[1, 2, 3, 4].map(() => textCell("–")),
    ]);
  const block = table("table_tests", ["Test", "State", "Runs (24 h)", "Failures", "Pass rate"], rows, [
    { is_wrapped: true },
    { is_wrapped: true },
    { align: "right" },
    { align: "right" },
    { align: "right" },
  ]);
  return withAlternative(
    block,
    packLines(
      sorted.map((t) => testLine(t, appUrl)),
      SECTIONS_PER_LIST,
      moreLine("more test"),
    ),
  );
}

/**
 * The daily digest: collections by 24 h growth with their sessions per day, then the tests'
 * pass rate per day and a table of the tests; empty sections say so. Charts and the table
 * carry their text alternative (src/messages/rich-blocks.ts).
 */
export function digestMessage(input: DigestInput): SlackMessage {
  const { date, zone, appUrl } = input;
  const title = input.title?.trim() || "Daily Decipher digest";
  // Sorted by growth so the collection that needs attention comes first.
  const collections = [...input.collections].sort((a, b) => growthOf(b) - growthOf(a));
  const unread = input.unreadCollections ?? [];
  const watched = collections.length + unread.length;
  const history = input.history ?? [];
  return fitMessage({
    text: `${escapeMrkdwn(title)} for ${oneLine(date)}: ${plural(watched, "issue collection")}, ${plural(input.tests.length, "test")}`,
    blocks: [
      header(`:newspaper: ${title} — ${date}`),
      context(`Last 24 hours · ${oneLine(zone)}`),
      ...(watched + input.tests.length > 0 ? chartsNotYet(history, date) : []),
      section(bold("Issue collections")),
      ...(watched > 0
        ? [
            ...packLines(
              [
                ...collections.map((c) => collectionLine(c, appUrl)),
                ...unread.map((c) => unreadCollectionLine(c, appUrl)),
              ],
              SECTIONS_PER_LIST,
              moreLine("more collection"),
            ),
            ...sessionsPerDayChart(
              history,
              collections.map((c) => ({
                id: c.collection.id,
                name: c.collection.rootCause,
                path: c.collection.shortenedPath,
              })),
            ),
          ]
        : [section("_No issue collections watched in this channel._")]),
      section(bold("Tests")),
      ...(input.tests.length > 0
        ? [...passRatePerDayChart(history), ...testsTable(input.tests, appUrl)]
        : [section("_No tests watched in this channel._")]),
    ],
  });
}
