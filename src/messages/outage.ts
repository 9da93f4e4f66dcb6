import type { HeldFailure } from "../model/held-failure.ts";
import { distinctMentions } from "../model/mention.ts";
import { context, header, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl } from "./links.ts";
import { link, oneLine, plural } from "./mrkdwn.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

export type OutageInput = {
  /** The failures the parent lists, as it was posted (its overflow aside). */
  items: HeldFailure[];
  /**
   * Failures of tests that failed while the outage was still open, named since in its thread:
   * the parent, edited, counts them.
   */
  later?: readonly HeldFailure[];
  appUrl: string;
  subscribed: number;
  /** Tests (by id) that passed again since: the parent, edited, says so. */
  recovered?: readonly number[];
};

/** A message of the outage, and the runs it names: a run counts as grouped only once a delivered message names it. */
export type OutagePart = { message: SlackMessage; runIds: number[] };

/** Sections per message: far below Slack's 50 blocks, so a message stays readable and within size. */
const SECTIONS_PER_MESSAGE = 20;
/** A test's line: its name and run, and its summary cut short; never cut mid-name. */
const SUMMARY_CHARS = 160;

/**
 * A test's line. `again`: its latest failure since, named in the thread, when it passed and
 * failed again: the line says the failing run is that one, not the run it listed from the start.
 */
function itemLine(
  item: HeldFailure,
  appUrl: string,
  recovered = false,
  again: HeldFailure | null = null,
): string {
  // Raw here: `link` escapes its label and `oneLine` the summary, each once.
  const name = item.testName.trim() || `Test ${item.testId}`;
  const summary = (item.summary ?? "").replace(/\s+/g, " ").trim();
  const cut = summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary;
  const then = item.passedNext
    ? ` · then passed on the next run${again && !recovered ? `, failed again since: run #${again.runId}, in this thread` : ""}`
    : again && !recovered
      ? ` · failed again since: run #${again.runId}, in this thread`
      : "";
  return `${recovered || item.passedNext ? ":white_check_mark:" : "•"} ${link(runUrl(appUrl, item.testId, item.runId), `${name} · run #${item.runId}`)}${cut ? ` — ${oneLine(cut)}` : ""}${then}`;
}

/** Lines packed into sections of at most Slack's section size, each line whole. */
function sections(lines: { text: string; runId: number }[]): { text: string; runIds: number[] }[] {
  const out: { text: string; runIds: number[] }[] = [];
  for (const line of lines) {
    const last = out[out.length - 1];
    if (last && last.text.length + 1 + line.text.length <= SLACK_LIMITS.sectionText) {
      last.text += `\n${line.text}`;
      last.runIds.push(line.runId);
    } else out.push({ text: line.text, runIds: [line.runId] });
  }
  return out;
}

/**
 * One event for several tests failing in the same cycle: the parent names as many tests as
 * fit, and thread replies name the rest, each test once. Each test's later failures and its
 * recovery reply in the parent's thread.
 */
export function outageMessages({ items, later = [], appUrl, subscribed, recovered = [] }: OutageInput): {
  parent: OutagePart;
  overflow: OutagePart[];
} {
  // Counted by test: a test that passed and failed again while the outage was open is one test.
  const tests = [...new Set([...items, ...later].map((i) => i.testId))];
  const atOnce = new Set(items.map((i) => i.testId)).size;
  const joined = tests.length - atOnce;
  const back = tests.filter((id) => recovered.includes(id)).length;
  const when = joined > 0 ? `(${atOnce} at once, ${joined} since)` : "at once";
  const title =
    back === 0
      ? `${plural(tests.length, "test")} failing ${when} — likely an outage or a bad deploy`
      : back === tests.length
        ? `${plural(tests.length, "test")} failed ${when} — all passed again`
        : `${plural(tests.length, "test")} failing ${when} — ${back} passed again since`;
  // Each test's latest failure since, when it still fails (a pass at once is not failing).
  const latestLater = (testId: number) =>
    later
      .filter((l) => l.testId === testId && l.runId > 0)
      .reduce<HeldFailure | null>((a, l) => (!a || l.runId > a.runId ? l : a), null);
  const packed = sections(
    items.map((item) => {
      const again = latestLater(item.testId);
      return {
        text: itemLine(item, appUrl, recovered.includes(item.testId), again?.passedNext ? null : again),
        runId: item.runId,
      };
    }),
  );
  const first = packed.slice(0, SECTIONS_PER_MESSAGE);
  const rest = packed.slice(SECTIONS_PER_MESSAGE);
  const firstIds = first.flatMap((s) => s.runIds);
  const more = items.length - firstIds.length;
  const pings = distinctMentions(items.map((i) => i.mention));
  const parent = fitMessage({
    text: `:rotating_light: ${title}${pings.length > 0 ? ` ${pings.join(" ")}` : ""}`,
    blocks: [
      header(`🚨 ${title}`),
      ...(pings.length > 0 ? [context(`:bell: ${pings.join(" ")}`)] : []),
      ...first.map((s) => section(s.text)),
      context(
        `${tests.length} of ${plural(subscribed, "watched test")} in this channel.${more > 0 ? ` The other ${more} are named in this thread.` : ""}${joined > 0 ? ` ${joined} more failed while it was open and ${joined === 1 ? "is" : "are"} named in this thread.` : ""} Later failures and recoveries of each test reply in this thread.`,
      ),
    ],
  });
  const overflow: OutagePart[] = [];
  for (let i = 0; i < rest.length; i += SECTIONS_PER_MESSAGE) {
    const chunk = rest.slice(i, i + SECTIONS_PER_MESSAGE);
    const runIds = chunk.flatMap((s) => s.runIds);
    overflow.push({
      runIds,
      message: fitMessage({
        text: `Also failing: ${plural(runIds.length, "test")}`,
        blocks: chunk.map((s) => section(s.text)),
      }),
    });
  }
  return { parent: { message: parent, runIds: firstIds }, overflow };
}

/**
 * Tests that failed while the outage was open (or while its message's outcome was unknown):
 * named once, in its thread. A reply that names a test is that failure's first post, so it
 * pings the test's `mention:` (each distinct one once), as the parent would have.
 */
export function outageAddition(items: HeldFailure[], appUrl: string): OutagePart[] {
  const packed = sections(items.map((item) => ({ text: itemLine(item, appUrl), runId: item.runId })));
  const out: OutagePart[] = [];
  for (let i = 0; i < packed.length; i += SECTIONS_PER_MESSAGE) {
    const chunk = packed.slice(i, i + SECTIONS_PER_MESSAGE);
    const runIds = chunk.flatMap((s) => s.runIds);
    const named = items.filter((item) => runIds.includes(item.runId));
    const pings = distinctMentions(named.map((i) => i.mention));
    // Past tense, true whenever read; the items say which passed again ("then passed on the next run").
    const heading = named.every((i) => i.passedNext)
      ? "Also failed since, and passed again"
      : "Also failed since";
    out.push({
      runIds,
      message: fitMessage({
        text: `${heading}: ${plural(runIds.length, "test")}${pings.length > 0 ? ` ${pings.join(" ")}` : ""}`,
        blocks: [
          section(`${heading}:`),
          ...chunk.map((s) => section(s.text)),
          ...(pings.length > 0 ? [context(`:bell: ${pings.join(" ")}`)] : []),
        ],
      }),
    });
  }
  return out;
}
