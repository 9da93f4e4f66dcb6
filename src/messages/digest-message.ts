import type { IssueCollection, TestInfo } from "../vendor/types.ts";
import { context, header, packLines, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { testUrl } from "./links.ts";
import { bold, code, escapeMrkdwn, link, oneLine, plural } from "./mrkdwn.ts";

export type DigestTestState = "passing" | "failing" | "running" | "unknown";

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
  /**
   * @deprecated Change of `sessionCount` since the previous digest or alert: not a 24-hour
   * figure, so it is labelled "since the last digest". Pass `newSessions24h` instead.
   */
  change24h?: number;
};

export type DigestInput = {
  /** Defaults to "Daily Decipher digest". */
  title?: string;
  /** The channel's local date, e.g. "2026-02-16". */
  date: string;
  /** IANA zone the digest is scheduled in. */
  zone: string;
  collections: DigestCollection[];
  tests: {
    test: TestInfo;
    runs24h: number;
    failures24h: number;
    /** 0…1, null without runs. */
    passRate: number | null;
    state: DigestTestState;
    /** Failures counted and not posted (`after:`, `trigger:`, …): counted here, never dropped. */
    notPosted?: number;
  }[];
  appUrl: string;
  now: Date;
};

/** Each list gets a bounded number of sections; the rest is counted, not dropped silently. */
const SECTIONS_PER_LIST = 20;

const STATE_ICON: Record<DigestTestState, string> = {
  passing: ":large_green_circle: passing",
  failing: ":red_circle: failing",
  running: ":large_blue_circle: running",
  unknown: ":white_circle: unknown",
};

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${Math.abs(n)}` : "±0");

/** "+7 in 24 h", "50+ in 24 h", "+3 since the last digest" (old callers), or "24 h unknown". */
export function collectionChange(line: DigestCollection): string {
  const recent = line.newSessions24h;
  if (recent)
    return `${recent.count > 0 ? "+" : ""}${recent.count.toLocaleString("en-US")}${recent.atLeast ? "+" : ""} in 24 h`;
  if (typeof line.change24h === "number" && recent === undefined)
    return `${signed(line.change24h)} since the last digest`;
  return "24 h change unknown";
}

/** What sorts a collection up the list: its 24-hour growth, else the older figure. */
const growthOf = (line: DigestCollection) => line.newSessions24h?.count ?? line.change24h ?? 0;

function collectionLine(line: DigestCollection): string {
  const c = line.collection;
  const path = c.shortenedPath ? ` ${code(c.shortenedPath)}` : "";
  return `• ${bold(c.rootCause || `Issue collection #${c.id}`)}${path} · ${plural(c.sessionCount, "session")} (${collectionChange(line)}) · ${plural(c.errorCount, "error")} · ${plural(c.estimatedUsers, "user")} · ${c.isResolved ? "resolved" : "unresolved"}`;
}

function testLine(t: DigestInput["tests"][number], appUrl: string): string {
  const rate =
    t.passRate === null || !Number.isFinite(t.passRate)
      ? "no runs"
      : `${Math.round(t.passRate * 100)} % passed`;
  const quiet = t.notPosted ? ` (${t.notPosted} not posted)` : "";
  return `• ${link(testUrl(appUrl, t.test.id), t.test.name || `Test ${t.test.id}`)} · ${STATE_ICON[t.state] ?? STATE_ICON.unknown} · ${plural(t.runs24h, "run")}, ${plural(t.failures24h, "failure")}${quiet} · ${rate}`;
}

/** The daily digest: collections by 24 h growth, then tests; empty sections say so. */
export function digestMessage(input: DigestInput): SlackMessage {
  const { date, zone, appUrl } = input;
  const title = input.title?.trim() || "Daily Decipher digest";
  // Sorted by growth so the collection that needs attention comes first.
  const collections = [...input.collections].sort((a, b) => growthOf(b) - growthOf(a));
  const more = (what: string) => (n: number) => `_…and ${plural(n, what)}_`;
  return fitMessage({
    text: `${escapeMrkdwn(title)} for ${oneLine(date)}: ${plural(collections.length, "issue collection")}, ${plural(input.tests.length, "test")}`,
    blocks: [
      header(`:newspaper: ${title} — ${date}`),
      context(`Last 24 hours · ${oneLine(zone)}`),
      section(bold("Issue collections")),
      ...(collections.length > 0
        ? packLines(collections.map(collectionLine), SECTIONS_PER_LIST, more("more collection"))
        : [section("_No issue collections watched in this channel._")]),
      section(bold("Tests")),
      ...(input.tests.length > 0
        ? packLines(
            input.tests.map((t) => testLine(t, appUrl)),
            SECTIONS_PER_LIST,
            more("more test"),
          )
        : [section("_No tests watched in this channel._")]),
    ],
  });
}
