import type { IssueCollection, TestInfo } from "../../vendor/types.ts";
import { fitMessage, type SlackMessage } from "../limits.ts";
import { bold, code, escapeMrkdwn, link, oneLine, plural } from "../mrkdwn.ts";
import { context, header, packLines, section } from "./elements.ts";
import { testUrl } from "./links.ts";

export type DigestTestState = "passing" | "failing" | "running" | "unknown";

export type DigestInput = {
  /** Defaults to "Daily Decipher digest". */
  title?: string;
  /** The channel's local date, e.g. "2026-02-16". */
  date: string;
  /** IANA zone the digest is scheduled in. */
  zone: string;
  collections: { collection: IssueCollection; change24h: number }[];
  tests: {
    test: TestInfo;
    runs24h: number;
    failures24h: number;
    /** 0…1, null without runs. */
    passRate: number | null;
    state: DigestTestState;
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

function collectionLine({ collection: c, change24h }: DigestInput["collections"][number]): string {
  const path = c.shortenedPath ? ` ${code(c.shortenedPath)}` : "";
  return `• ${bold(c.rootCause || `Issue collection #${c.id}`)}${path} · ${plural(c.sessionCount, "session")} (${signed(change24h)} in 24 h) · ${plural(c.errorCount, "error")} · ${plural(c.estimatedUsers, "user")} · ${c.isResolved ? "resolved" : "unresolved"}`;
}

function testLine(t: DigestInput["tests"][number], appUrl: string): string {
  const rate =
    t.passRate === null || !Number.isFinite(t.passRate)
      ? "no runs"
      : `${Math.round(t.passRate * 100)} % passed`;
  return `• ${link(testUrl(appUrl, t.test.id), t.test.name || `Test ${t.test.id}`)} · ${STATE_ICON[t.state] ?? STATE_ICON.unknown} · ${plural(t.runs24h, "run")}, ${plural(t.failures24h, "failure")} · ${rate}`;
}

/** The daily digest: collections by 24 h growth, then tests; empty sections say so. */
export function digestMessage(input: DigestInput): SlackMessage {
  const { date, zone, appUrl } = input;
  const title = input.title?.trim() || "Daily Decipher digest";
  // Sorted by growth so the collection that needs attention comes first.
  const collections = [...input.collections].sort((a, b) => b.change24h - a.change24h);
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
