import { askExample } from "./action-ids.ts";
import { actions, button, context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn, oneLine } from "./mrkdwn.ts";

/** What the channel watches, for examples in its own words. */
export type HelpExamples = { tests: readonly string[]; collections: readonly number[] };

/** The questions a mention answers, each an example built from what this channel watches. */
function questions({ tests, collections }: HelpExamples): string[] {
  const [first, second] = tests.map((name) => escapeMrkdwn(oneLine(name).slice(0, 60)));
  const test = first ?? "checkout";
  const collection = collections[0];
  return [
    "• `@Decipher what failed today?` (or `anything broken?`, `what failed since Monday?`) — each test here that failed, from its runs",
    `• \`@Decipher is ${test} broken?\` — that test only`,
    `• \`@Decipher why did ${test} fail?\` — its last failed run: summary, failed step, duration, trigger, link`,
    `• \`@Decipher is ${second ?? test} flaky?\` — its state, with the runs behind it`,
    "• `@Decipher what did jane@acme.com do today?` (or `sessions of user:<id> this week`) — her recorded sessions, as `/sessions` shows them",
    `• \`@Decipher what's happening with collection ${collection ?? "<id>"}?\` (or \`what's growing?\`) — the channel's collections`,
    "• `@Decipher sessions jane@acme.com since:7d` — the `/sessions` form (`user:<id>`, `url:<text>`, `since:`, `until:`)",
  ];
}

/** Example questions as buttons that ask them (src/handlers/actions/ask-example.ts), from what is watched. */
function exampleButtons({ tests, collections }: HelpExamples) {
  const [first, second] = tests.map((name) => oneLine(name).slice(0, 40));
  const asked = [
    "What failed today?",
    ...(first ? [`Is ${first} broken?`, `Why did ${first} fail?`, `Is ${second ?? first} flaky?`] : []),
    ...(collections.length > 0 ? ["What's growing?"] : []),
  ];
  return actions(
    ...asked.map((question, i) =>
      button({ text: question, actionId: `${askExample}:${i}`, value: question }),
    ),
  );
}

/**
 * What a mention answers to `help`, and to anything it cannot place: the questions it answers,
 * as examples from this channel's own tests and collections. It never repeats what was typed.
 */
export function mentionHelpMessage(examples: HelpExamples = { tests: [], collections: [] }): SlackMessage {
  return fitMessage({
    text: "Ask me in plain words, for example: @Decipher what failed today?",
    blocks: [
      section(
        `*Ask me in plain words, in this thread or any channel I'm in:*\n${questions(examples).join("\n")}`,
      ),
      ...exampleButtons(examples),
      context("Paste a Decipher session or test link and I explain it. `/decipher help` manages alerts."),
    ],
  });
}
