import { askExample } from "./action-ids.ts";
import type { AskScope } from "./ask-scope.ts";
import { actions, button, context, section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn, oneLine } from "./mrkdwn.ts";

/** What the channel watches, for examples in its own words. */
export type HelpExamples = { tests: readonly string[]; collections: readonly number[] };

/**
 * How the examples read where help was asked: in a channel, a mention ("`@Decipher …`", about
 * "here"); in a DM or the assistant pane, the words alone, about the person's channels.
 */
const SCOPED = {
  channel: {
    ask: "@Decipher ",
    here: "here",
    theirs: "the channel's",
    where: "in this thread or any channel I'm in",
  },
  person: {
    ask: "",
    here: "in your channels",
    theirs: "your channels'",
    where: "here, or with @Decipher in any channel I'm in",
  },
} as const satisfies Record<AskScope, Record<string, string>>;

/** The questions it answers, each an example built from what is watched. */
function questions({ tests, collections }: HelpExamples, scope: AskScope): string[] {
  const [first, second] = tests.map((name) => escapeMrkdwn(oneLine(name).slice(0, 60)));
  const test = first ?? "checkout";
  const collection = collections[0];
  const { ask, here, theirs } = SCOPED[scope];
  return [
    `• \`${ask}what failed today?\` (or \`anything broken?\`, \`what failed since Monday?\`) — each test ${here} that failed, from its runs`,
    `• \`${ask}is ${test} broken?\` — that test only`,
    `• \`${ask}why did ${test} fail?\` — its last failed run: summary, failed step, duration, trigger, link`,
    `• \`${ask}is ${second ?? test} flaky?\` — its state, with the runs behind it`,
    `• \`${ask}what did jane@acme.com do today?\` (or \`sessions of user:<id> this week\`) — her recorded sessions, as \`/sessions\` shows them`,
    `• \`${ask}what's happening with collection ${collection ?? "<id>"}?\` (or \`what's growing?\`) — ${theirs} collections`,
    `• \`${ask}sessions jane@acme.com since:7d\` — the \`/sessions\` form (\`user:<id>\`, \`url:<text>\`, \`since:\`, \`until:\`)`,
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
export function mentionHelpMessage(
  examples: HelpExamples = { tests: [], collections: [] },
  scope: AskScope = "channel",
): SlackMessage {
  return fitMessage({
    text: `Ask me in plain words, for example: ${SCOPED[scope].ask}what failed today?`,
    blocks: [
      section(`*Ask me in plain words, ${SCOPED[scope].where}:*\n${questions(examples, scope).join("\n")}`),
      ...exampleButtons(examples),
      context("Paste a Decipher session or test link and I explain it. `/decipher help` manages alerts."),
    ],
  });
}
