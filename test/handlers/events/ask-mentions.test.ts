import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, visibleText } from "../../../dev/in-workerd/bot.ts";
import { eventsOf } from "../../helpers/events.ts";

/**
 * Questions asked of `@Decipher` in plain words (#39), answered in the mention's thread: the
 * demo's tests 101 (Checkout flow), 102 (Login with SSO) and 103 (Search & filters) watched in
 * #alerts, as a person would set it up.
 */
async function channel(...subscribes: string[]) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const events = eventsOf(bot);
  for (const s of subscribes) await bot.command("/decipher", `subscribe ${s}`);
  const org = emulator.org(apiKey);
  /** Asks in #alerts; the answer in its thread. */
  async function ask(question: string): Promise<string> {
    const { message } = await events.say("C0ALERTS", `@Decipher ${question}`);
    const [answer, ...more] = (await bot.messages("C0ALERTS")).filter(
      (m) => m.bot_id && m.thread_ts === message.ts,
    );
    expect(more).toEqual([]);
    return visibleText(answer ?? {});
  }
  return { bot, org, ask };
}

const failedCount = (text: string, testId: number) =>
  Number(new RegExp(`tests/${testId}\\|[^>]+>\\* failed (\\d+) of`).exec(text)?.[1] ?? 0);

describe("@Decipher, asked what failed", () => {
  it("lists each test that failed today, though its last run passed, from the test's own runs", async () => {
    const { org, bot, ask } = await channel("test 101", "test 103");
    for (const status of ["failed", "failed", "failed", "passed"] as const) await org.addRun(101, status);
    await bot.cron();
    const before = await org.requestTotal();
    const answer = await ask("what failed today?");
    expect(failedCount(answer, 101)).toBeGreaterThanOrEqual(3);
    expect(answer).toMatch(/failed since <!date\^\d+\^/);
    expect(answer).not.toContain("tests/103|");
    expect(answer).not.toContain("I don't know");
    // Each test's object answers from its ledger: Decipher is not asked.
    expect(await org.requestTotal()).toBe(before);
  });

  it("narrows the answer to the test named, and says so when it has not failed", async () => {
    const { org, bot, ask } = await channel("test 101", "test 103");
    await org.addRun(101, "failed");
    await org.addRun(101, "passed");
    await bot.cron();
    const checkout = await ask("is checkout broken?");
    expect(failedCount(checkout, 101)).toBeGreaterThanOrEqual(1);
    expect(checkout).not.toContain("Search & filters");
    const search = await ask("is serch broken");
    expect(search).toMatch(/Search &amp; filters\* has not failed since <!date/);
    expect(search).not.toContain("Checkout flow");
  });

  it("answers 'is there anything I should look at?' as what failed, never 'I don't know'", async () => {
    const { org, bot, ask } = await channel("test 101");
    await org.addRun(101, "failed");
    await bot.cron();
    const answer = await ask("is there anything I should look at?");
    expect(failedCount(answer, 101)).toBeGreaterThanOrEqual(1);
    expect(answer).not.toContain("I don't know");
  });
});

describe("@Decipher, asked about one test", () => {
  it("why did checkout fail: its last failed run, with its summary, step, trigger and link", async () => {
    const { org, ask } = await channel("test 101");
    const run = await org.addRun(101, "failed");
    const answer = await ask("why did chekout fail");
    expect(answer).toContain("Did you mean *Checkout flow*?");
    expect(answer).toContain(`Checkout flow>* last failed`);
    expect(answer).toContain(`#${run.id}`);
    expect(answer).toMatch(/step \d+ of \d+/);
  });

  it("is login flaky: its state in the status's words, and its runs of the day", async () => {
    const { ask } = await channel("test 102");
    const answer = await ask("is login flakey?");
    expect(answer).toMatch(/Login with SSO>\* :[a-z_]+: [a-z ]+: /);
    expect(answer).toMatch(/\d+ failures? in \d+ runs? since <!date/);
  });

  it("a test this channel does not watch, or none named: says which it watches", async () => {
    const { ask } = await channel("test 101");
    expect(await ask("why did test 999 fail?")).not.toContain("I don't know");
    expect(await ask("is test 103 flaky")).toContain("This channel does not watch test 103.");
    expect(await ask("why did it fail")).toContain("Checkout flow (`test 101`)");
  });
});

describe("@Decipher, asked about people and collections", () => {
  it("what did jane@acme.com do this week: her sessions, as /sessions shows them", async () => {
    const { ask } = await channel();
    const answer = await ask("what did jane@acme.com do this week");
    expect(answer).toContain("jane@acme.com");
    expect(answer).toMatch(/sessions\//);
  });

  it("what's growing, and one collection by id", async () => {
    const { ask } = await channel("collection 501");
    expect(await ask("whats growing?")).toContain("collections/501");
    expect(await ask("what's happening with collection 501?")).toContain("collections/501");
    expect(await ask("collection 777")).toContain("This channel does not watch collection 777.");
  });
});

describe("@Decipher, asked what it cannot place", () => {
  it("answers with the questions it can answer, built from this channel's tests, never echoing the words", async () => {
    const { ask } = await channel("test 101", "test 102");
    for (const question of ["tell me a joke", "help", "hi"]) {
      const answer = await ask(question);
      expect(answer).toContain("is Checkout flow broken?");
      expect(answer).toContain("is Login with SSO flaky?");
      expect(answer).not.toContain("I don't know");
      expect(answer).not.toContain("joke");
    }
  });
});
