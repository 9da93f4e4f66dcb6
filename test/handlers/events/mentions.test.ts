import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../../dev/in-workerd/bot.ts";

import { eventsOf } from "../../helpers/events.ts";

async function setup() {
  const bot = createBot({ apiKey: await newOrg() });
  return { bot, events: eventsOf(bot) };
}

describe("app_mention", () => {
  it("answers `@Decipher sessions <email>` with session cards in a thread under the mention", async () => {
    const { bot, events } = await setup();
    const { message, events: sent } = await events.say(
      "C0ALERTS",
      "@Decipher sessions jane@acme.com since:30d",
    );
    expect(sent.map((e) => e.event.type)).toEqual(["app_mention"]);
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.thread_ts).toBe(message.ts);
    expect(replies[0]?.ephemeral).toBe(false);
    expect(visibleText(replies[0] ?? {})).toContain("jane@acme.com");
    expect(JSON.stringify(replies[0]?.blocks)).toContain("session_timeline");
  });

  it("answers a mention inside a thread in that thread", async () => {
    const { bot, events } = await setup();
    const { message: parent } = await events.say("C0ALERTS", "checkout is broken again");
    await events.say("C0ALERTS", "@Decipher help", { threadTs: parent.ts });
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.thread_ts).toBe(parent.ts);
    expect(visibleText(replies[0] ?? {})).toContain("@Decipher sessions jane@acme.com");
  });

  it("answers anything it cannot place with the questions it answers, and bad `sessions` input with the /sessions usage", async () => {
    const { bot, events } = await setup();
    await events.say("C0ALERTS", "@Decipher what's up");
    await events.say("C0ALERTS", "@Decipher sessions not-an-email");
    const replies = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id);
    expect(replies).toHaveLength(2);
    expect(visibleText(replies[0] ?? {})).toContain("@Decipher what failed today?");
    expect(visibleText(replies[0] ?? {})).not.toContain("I don't know");
    expect(visibleText(replies[1] ?? {})).toContain("Usage:");
  });

  it("answers 'what is broken right now?' with the channel's tests that failed, from what the bot stored", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    await bot.command("/decipher", "subscribe test 101");
    await bot.command("/decipher", "subscribe test 103");
    const org = emulator.org(apiKey);
    await org.addRun(101, "failed");
    await bot.cron();
    const before = await org.requestTotal();
    await events.say("C0ALERTS", "@Decipher what is broken right now?");
    const red = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts).at(-1);
    const text = visibleText(red ?? {});
    expect(text).toMatch(
      /tests\/101\|[^>]+>\* failed \d+ of \d+ runs · last <[^>]+> <!date\^\d+\^[^>]+> · :red_circle: [a-z ]+: [^(]+\(as of <!date\^\d+\^[^>]+>\)/,
    );
    expect(text).toContain("the alert>");
    expect(text).not.toContain("tests/103|");
    expect(text).not.toContain("I don't know");
    // It asks Decipher nothing: each test's object answers from its ledger.
    expect(await org.requestTotal()).toBe(before);
  });

  it("names a test whose runs were already failing when it was subscribed, in the status's words, before any alert", async () => {
    const bot = createBot({ apiKey: await newOrg() });
    await bot.command("/decipher", "subscribe test 102");
    await eventsOf(bot).say("C0ALERTS", "@Decipher what is broken right now?");
    const answer = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts).at(-1);
    const text = visibleText(answer ?? {});
    expect(text).toMatch(/tests\/102\|Login with SSO>\*.* :red_circle: broken: failed \d+ runs in a row/);
  });

  it("tells the person when Decipher fails, without details", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    await emulator.org(apiKey).fault("sessions", "500", 5);
    await events.say("C0ALERTS", "@Decipher sessions jane@acme.com");
    const [reply] = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id);
    expect(visibleText(reply ?? {})).toContain("Decipher is unavailable right now");
    expect(visibleText(reply ?? {})).not.toMatch(/stack|Error:|at .*\.ts/);
  });
});

describe("a mention in the bot's own message (review15)", () => {
  // An alert of a subscription whose `mention:` names the app itself pings the app: Slack sends
  // the app_mention of the bot's own post, with its user and bot ids. slack-edge's
  // ignoringSelfEvents drops it by the ids auth.test gave; a request that stopped waiting for
  // auth.test (src/handlers/authorize.ts, AUTH_TEST_WAIT_MS) has none to compare.
  async function ownAlertMentioningTheApp(slowAuthTest: boolean) {
    const { bot, events } = await setup();
    if (slowAuthTest) await bot.slackFault("auth.test", "hang", 1, { delayMs: 3000 });
    const { events: sent } = await events.post("C0ALERTS", "@Decipher Checkout flow failed: run #10068");
    const mention = sent.find((e) => e.event.type === "app_mention");
    if (!mention) throw new Error("the stand-in sent no app_mention");
    // The stand-in posts as people only: the envelope is made the bot's own post's.
    const ack = await events.send({
      ...mention,
      event: { ...mention.event, user: "U0DECIPHER", bot_id: "B0DECIPHER" },
    });
    expect(ack.status).toBe(200);
    const answers = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts);
    return answers.map((m) => visibleText(m));
  }

  it("is not answered on a warm isolate", async () => {
    expect(await ownAlertMentioningTheApp(false)).toEqual([]);
  });

  it("is not answered either on an isolate whose first auth.test is slow: the bot does not answer its own alert", async () => {
    expect(await ownAlertMentioningTheApp(true)).toEqual([]);
  });
});
