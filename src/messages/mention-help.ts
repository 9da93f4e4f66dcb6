import { context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn } from "./mrkdwn.ts";

const MENTION_HELP = escapeMrkdwn(
  [
    "*Mention me with:*",
    "• `@Decipher sessions jane@acme.com` — her recorded sessions, here in the thread (also `user:<id>`, `url:<text>`, `since:7d`, `until:24h`)",
    "• `@Decipher what is broken right now?` — this channel's failing tests, from the last poll",
    "• `@Decipher help` — this message",
  ].join("\n"),
);

/** What a mention answers to `help` — and, led by a short note, to anything it does not know. */
export function mentionHelpMessage(unknown?: string): SlackMessage {
  const lead = unknown ? `I don't know \`${escapeMrkdwn(unknown.slice(0, 40))}\`. ` : "";
  return fitMessage({
    text: `${lead}Try @Decipher sessions jane@acme.com`,
    blocks: [
      section(`${lead}${MENTION_HELP}`),
      context("Paste a Decipher session or test link and I explain it. `/decipher help` manages alerts."),
    ],
  });
}
