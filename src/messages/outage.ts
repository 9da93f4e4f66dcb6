import { distinctMentions } from "../model/mention.ts";
import { context, header, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { runUrl } from "./links.ts";
import { escapeMrkdwn, link, oneLine, plural } from "./mrkdwn.ts";

export type OutageItem = {
  testId: number;
  testName: string;
  runId: number;
  summary: string | null;
  /** The test's `mention:`: the message pings each distinct one once. */
  mention?: string | null;
};

export type OutageInput = { items: OutageItem[]; appUrl: string; subscribed: number };

/**
 * One message for several tests of a channel failing in the same cycle: an outage or a bad
 * deploy reads as one event, not a wall of alerts. Each test's later failures and its
 * recovery reply in this message's thread.
 */
export function outageMessage({ items, appUrl, subscribed }: OutageInput): SlackMessage {
  const title = `${plural(items.length, "test")} failing at once — likely an outage or a bad deploy`;
  const lines = items.map((item) => {
    const name = oneLine(item.testName) || `Test ${item.testId}`;
    const summary = item.summary ? ` — ${escapeMrkdwn(oneLine(item.summary))}` : "";
    return `• ${link(runUrl(appUrl, item.testId, item.runId), `${escapeMrkdwn(name)} · run #${item.runId}`)}${summary}`;
  });
  const pings = distinctMentions(items.map((i) => i.mention));
  return fitMessage({
    text: `:rotating_light: ${title}${pings.length > 0 ? ` ${pings.join(" ")}` : ""}`,
    blocks: [
      header(`🚨 ${title}`),
      ...(pings.length > 0 ? [context(`:bell: ${pings.join(" ")}`)] : []),
      section(lines.join("\n")),
      context(
        `${items.length} of ${plural(subscribed, "watched test")} in this channel. Later failures and recoveries of each test reply in this thread.`,
      ),
    ],
  });
}
