import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../../dev/in-workerd/bot.ts";
import { eventsOf } from "../../helpers/events.ts";

/**
 * The help answer's examples are buttons that ask them (#39): built from what is watched (the
 * demo's Checkout flow, 101, failed today), a click answers as if the question had been typed,
 * where the help was: in the mention's thread, in the DM, to the person alone after
 * `/decipher ask`.
 */
async function alerts() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const events = eventsOf(bot);
  await bot.command("/decipher", "subscribe test 101");
  await emulator.org(apiKey).addRun(101, "failed");
  await bot.cron();
  return { bot, events };
}

/** The example button of `help` whose text is `text`: its action id. */
function example(message: StoredMessage, text: string): string {
  for (const block of (message.blocks ?? []) as {
    type: string;
    elements?: { text?: { text?: string }; action_id?: string }[];
  }[])
    for (const e of block.type === "actions" ? (block.elements ?? []) : [])
      if (e.text?.text === text && e.action_id) return e.action_id;
  throw new Error(`no example "${text}" in ${visibleText(message)}`);
}

const failedCount = (text: string) => Number(/tests\/101\|[^>]+>\* failed (\d+) of/.exec(text)?.[1] ?? 0);

describe("help's examples, clicked", () => {
  it("in a mention's thread: the answer goes in that thread, as if asked there", async () => {
    const { bot, events } = await alerts();
    const { message } = await events.say("C0ALERTS", "@Decipher help");
    const inThread = async () =>
      (await bot.messages("C0ALERTS")).filter((m) => m.bot_id && m.thread_ts === message.ts);
    const [help] = await inThread();
    if (!help) throw new Error("no help answer");
    expect((await bot.click(help, example(help, "Is Checkout flow broken?"))).status).toBe(200);
    const [, answer, ...more] = await inThread();
    expect(more).toEqual([]);
    expect(failedCount(visibleText(answer ?? {}))).toBeGreaterThanOrEqual(1);
  });

  it("in a DM: answered in the DM, from the person's channels", async () => {
    const { bot, events } = await alerts();
    await events.say("D0ALICE", "what can you do");
    const [help] = (await bot.messages("D0ALICE")).filter((m) => m.bot_id);
    if (!help) throw new Error("no help answer");
    await bot.click(help, example(help, "What failed today?"));
    const [, answer] = (await bot.messages("D0ALICE")).filter((m) => m.bot_id);
    expect(failedCount(visibleText(answer ?? {}))).toBeGreaterThanOrEqual(1);
  });

  it("after /decipher ask: to the person alone", async () => {
    const { bot } = await alerts();
    await bot.command("/decipher", "ask help");
    const help = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral).at(-1);
    if (!help) throw new Error("no help answer");
    await bot.click(help, example(help, "Why did Checkout flow fail?"));
    const answer = (await bot.messages("C0ALERTS")).filter((m) => m.ephemeral).at(-1);
    expect(answer?.visible_to).toBe("U0ALICE");
    expect(visibleText(answer ?? {})).toContain("Checkout flow>* last failed");
  });
});
