import { subscriptionId } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { context, section } from "./elements.ts";
import { type KindWords, wordsOf } from "./kind-words.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { code, dateToken, escapeMrkdwn, plural } from "./mrkdwn.ts";

export type NoticeInput = {
  sub: Subscription;
  kind: "paused" | "erroring" | "recovered" | "resumed";
  appUrl: string;
  /** Resumed: the failed runs counted, not posted, while Slack refused the channel. */
  held?: number;
};

const resubscribe = (sub: Subscription) => code(`/decipher subscribe ${sub.kind} ${subscriptionId(sub)}`);
const unsubscribe = (sub: Subscription) => code(`/decipher unsubscribe ${sub.kind} ${subscriptionId(sub)}`);

/** The channel's own word that its alerts stopped, or started again: never silent. */
export function noticeMessage(words: KindWords, { sub, kind, held = 0 }: NoticeInput): SlackMessage {
  const name = wordsOf(words, sub).noticeName(sub);
  const reason = escapeMrkdwn(sub.paused?.reason ?? sub.lastError?.message ?? "unknown error");
  const retry = sub.paused?.retryAt
    ? `I'll try again ${dateToken(sub.paused.retryAt)}, or ${resubscribe(sub)} here to resume now.`
    : // Not retried: most often the item is gone at Decipher (src/model/pause.ts), which no one fixes here.
      `${resubscribe(sub)} resumes it, or ${unsubscribe(sub)} removes it if it is gone for good.`;
  const text =
    kind === "paused"
      ? `:double_vertical_bar: Alerts for ${name} are paused: ${reason} ${retry}`
      : kind === "erroring"
        ? `:warning: Alerts for ${name} have not worked for 15 minutes: ${reason} The bot keeps retrying; \`/decipher status\` shows the latest.`
        : kind === "resumed"
          ? `:white_check_mark: Alerts for ${name} are working again: Slack takes the bot's posts here again.${heldLine(held)}`
          : `:white_check_mark: Alerts for ${name} are working again.`;
  return fitMessage({
    text,
    blocks: [
      section(text),
      context("Sent once, so a quiet alert channel is never mistaken for a healthy one."),
    ],
  });
}

/** What a pause held back: told, so nothing that failed meanwhile goes unaccounted. */
const heldLine = (held: number) =>
  held > 0
    ? ` ${plural(held, "failed run")} while it was paused ${held === 1 ? "was" : "were"} not posted; \`/decipher status\` counts them.`
    : "";
