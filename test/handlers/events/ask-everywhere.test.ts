import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg } from "../../../dev/in-workerd/bot.ts";
import { GUEST_REFUSAL, OUTSIDER_REFUSAL } from "../../../src/messages/outsiders.ts";
import { askers, SURFACES } from "../../helpers/ask.ts";
import { eventsOf, fromAnotherOrg } from "../../helpers/events.ts";

/**
 * Each question the bot understands (#39), asked end to end in the three places people ask:
 * a mention, a DM, the assistant pane. #alerts watches the demo's Checkout flow (101, failed
 * today), Login with SSO (102) and collection 501; Alice is in #alerts, so her DM and pane
 * answer from the same.
 */
async function alerts() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const events = eventsOf(bot);
  for (const s of ["test 101", "test 102", "collection 501"])
    await bot.command("/decipher", `subscribe ${s}`);
  const org = emulator.org(apiKey);
  const run = await org.addRun(101, "failed");
  await bot.cron();
  return { bot, events, run };
}

const INTENTS: { intent: string; question: string; says: (runId: number) => (string | RegExp)[] }[] = [
  { intent: "failed", question: "what failed today?", says: () => [/Checkout flow>\* failed \d+ of/] },
  {
    intent: "why-failed",
    question: "why did chekout fail",
    says: (runId) => [
      "Did you mean *Checkout flow*?",
      "Checkout flow>* last failed",
      `#${runId}`,
      /step \d+ of \d+/,
    ],
  },
  {
    intent: "flaky",
    question: "is login flakey?",
    says: () => [/Login with SSO>\* /, /\d+ runs? since <!date/],
  },
  {
    intent: "sessions",
    question: "what did jane@acme.com do this week",
    says: () => ["jane@acme.com", "sessions/"],
  },
  { intent: "collections", question: "whats growing?", says: () => ["collections/501"] },
  {
    intent: "help",
    question: "tell me a joke",
    says: () => ["is Checkout flow broken?", "is Login with SSO flaky?"],
  },
];

describe.each(SURFACES)("asked in: %s", (surface) => {
  it.each(INTENTS)("$intent: '$question'", async ({ question, says }) => {
    const { bot, events, run } = await alerts();
    const answer = await askers(bot, events)[surface](question);
    for (const part of says(run.id))
      expect(answer).toMatch(part instanceof RegExp ? part : new RegExp(literally(part)));
    expect(answer).not.toContain("I don't know");
  });
});

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the assistant pane", () => {
  it("suggests prompts from the person's own tests, and shows what it looks up until the answer lands", async () => {
    const { bot, events } = await alerts();
    const thread = await events.openPane();
    const [opened] = await events.pane();
    expect(opened?.promptsTitle).toBe("Ask about your tests");
    expect(opened?.prompts.map((p) => p.title)).toEqual([
      "What failed today?",
      "Why did Checkout flow fail?",
      "Is Login with SSO flaky?",
      "What's growing?",
    ]);
    await events.say(thread.channel, "Why did Checkout flow fail?", { threadTs: thread.threadTs });
    const statuses = (await bot.slackCalls()).filter((c) => c.method === "assistant.threads.setStatus");
    expect(statuses.map((c) => (c.params as { status?: string }).status)).toEqual([
      "is looking up Checkout flow's last failed run…",
    ]);
    const [answered] = await events.pane();
    expect(answered?.status).toBeNull();
    expect(answered?.messages.filter((m) => m.bot_id)).toHaveLength(1);
  });

  it("a person whose channels watch nothing is offered the question of what it answers", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    await events.openPane("U0BOB");
    const [opened] = await events.pane("U0BOB");
    expect(opened?.prompts.map((p) => p.message)).toEqual(["What failed today?", "What can you answer?"]);
  });

  it("a guest of the workspace who opens it gets the guest sentence, and no prompt names a test", async () => {
    const { bot, events } = await alerts();
    await bot.person("U0GUEST", "guest", ["C0ALERTS"]);
    await events.openPane("U0GUEST");
    const [opened] = await events.pane("U0GUEST");
    expect(opened?.prompts).toEqual([]);
    expect(opened?.messages.map((m) => m.text)).toEqual([GUEST_REFUSAL]);
    expect((await bot.slackCalls()).filter((c) => c.method.startsWith("assistant."))).toEqual([]);
  });

  it("someone of another organization (Slack Connect) who opens it gets the sentence, and no prompt names a test", async () => {
    const { bot, events } = await alerts();
    const team = await bot.team();
    await events.openPane("U0ALICE", { teamOf: (e) => fromAnotherOrg(e, team) });
    const [opened] = await events.pane();
    expect(opened?.prompts).toEqual([]);
    expect(opened?.messages.map((m) => m.text)).toEqual([OUTSIDER_REFUSAL]);
    expect((await bot.slackCalls()).filter((c) => c.method.startsWith("assistant."))).toEqual([]);
  });
});
