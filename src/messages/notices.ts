import { subscriptionId } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { context, section } from "./elements.ts";
import { type KindWords, wordsOf } from "./kind-words.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { code, escapeMrkdwn } from "./mrkdwn.ts";

export type NoticeInput = { sub: Subscription; kind: "paused" | "failing" | "recovered"; appUrl: string };

const resubscribe = (sub: Subscription) => code(`/decipher subscribe ${sub.kind} ${subscriptionId(sub)}`);

/** The channel's own word that its alerts stopped, or started again: never silent. */
export function noticeMessage(words: KindWords, { sub, kind }: NoticeInput): SlackMessage {
  const name = wordsOf(words, sub).noticeName(sub);
  const reason = escapeMrkdwn(sub.paused?.reason ?? sub.lastError?.message ?? "unknown error");
  const text =
    kind === "paused"
      ? `:double_vertical_bar: Alerts for ${name} are paused: ${reason} Fix it, then ${resubscribe(sub)} to resume.`
      : kind === "failing"
        ? `:warning: Alerts for ${name} have not worked for 15 minutes: ${reason} The bot keeps retrying; \`/decipher status\` shows the latest.`
        : `:white_check_mark: Alerts for ${name} are working again.`;
  return fitMessage({
    text,
    blocks: [
      section(text),
      context("Sent once, so a quiet alert channel is never mistaken for a healthy one."),
    ],
  });
}
