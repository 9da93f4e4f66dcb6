import { describe, expect, it } from "vitest";
import { type Bot, createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { objectState } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Test 102 of the demo organization ("Login with SSO") failed its last 5 runs; 101 passes;
// collection 502 is resolved (dev/emulator/README.md).
/** A bot of a new organization whose test "Nightly checkout" has these runs, oldest first. */
async function nightlyWith(runs: readonly (readonly ["passed" | "failed", string])[]) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const org = emulator.org(apiKey);
  const nightly = await org.addTest("Nightly checkout");
  for (const [status, triggeredBy] of runs) await org.addRun(nightly.id, status, { triggeredBy });
  return { bot, org, nightly };
}

/** The text of the last message in #alerts: the reply to the command just sent. */
const lastReply = async (bot: Bot) => visibleText((await bot.messages("C0ALERTS")).at(-1) ?? {});

describe("subscribing tells the state it found", () => {
  it("a test failing when subscribed: the reply says since when, and its first pass is told in the channel, once", async () => {
    const { bot, org } = await subscribedBot("subscribe test 102");
    const reply = await lastReply(bot);
    expect(reply).toMatch(/Now: .*failed 5 runs in a row/);
    expect(reply).toMatch(/It has failed 5 runs in a row since .*: I'll tell this channel when it passes/);

    const pass = await org.addRun(102, "passed");
    await bot.cron();
    const told = (await bot.posted()).map(visibleText);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /Login with SSO>\* passed again \(<[^|]+\|Run #\d+> .*\): it had failed 5 runs in a row, since .*, when this channel subscribed/,
    );
    expect(told[0]).toContain(`#${pass.id}`);
    expect((await objectState(bot, "test", 102))?.kind === "test").toBe(true);

    await org.addRun(102, "passed");
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
  });

  it("an option change says the state under the new options, never 'running' for a test with finished runs", async () => {
    const { bot, nightly } = await nightlyWith([
      ["passed", "schedule"],
      ["passed", "schedule"],
      ["passed", "manual"],
    ]);
    const now = async () => (await lastReply(bot)).match(/Now: [^\n]*/)?.[0];

    await bot.command("/decipher", `subscribe test ${nightly.id}`);
    expect(await now()).toMatch(/passing/);
    // No run of its has that trigger: none is under way either.
    await bot.command("/decipher", `subscribe test ${nightly.id} trigger:scheduled`);
    expect(await now()).toMatch(/no run with trigger `scheduled` seen yet/);
    await bot.command("/decipher", `subscribe test ${nightly.id} trigger:schedule`);
    expect(await now()).toMatch(/passing/);
  });

  it("a test already flaky is promised what its flaky: option does, not a follow-up thread per failure", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const flappy = await org.addTest("Flappy flow");
    for (const status of ["failed", "passed", "failed", "passed", "failed", "passed"] as const)
      await org.addRun(flappy.id, status);
    await bot.command("/decipher", `subscribe test ${flappy.id}`);
    const reply = await lastReply(bot);
    expect(reply).toMatch(/Now: .*flaky/);
    expect(reply).toContain("It is flaky: its failures go into one thread a day");
    expect(reply).not.toContain("thread follow-ups until it passes again");
  });

  it("subscribing again says the state as of now, not as of the last poll", async () => {
    const { bot, org, nightly } = await nightlyWith([["passed", "schedule"]]);
    await bot.command("/decipher", `subscribe test ${nightly.id}`);
    await bot.cron();
    // Two failures since the last poll: no poll has seen them yet.
    await org.addRun(nightly.id, "failed");
    await org.addRun(nightly.id, "failed");
    for (const again of [`subscribe test ${nightly.id}`, `subscribe test ${nightly.id} after:2`]) {
      await bot.command("/decipher", again);
      const reply = await lastReply(bot);
      expect(reply, again).toMatch(/Now: [^\n]*failed 2 runs in a row/);
    }
  });

  it("with trigger:, failing on that trigger is promised and its pass told, though another trigger's runs passed since", async () => {
    const { bot, org, nightly } = await nightlyWith([
      ["failed", "schedule"],
      ["failed", "schedule"],
      ["passed", "manual"],
      ["passed", "manual"],
    ]);
    await bot.command("/decipher", `subscribe test ${nightly.id} trigger:schedule`);
    const reply = await lastReply(bot);
    expect(reply).toMatch(/It has failed 2 runs in a row since .*: I'll tell this channel when it passes/);

    await org.addRun(nightly.id, "passed", { triggeredBy: "schedule" });
    await bot.cron();
    const told = (await bot.posted()).map(visibleText);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /passed again .*it had failed 2 runs in a row, since .*, when this channel subscribed/,
    );
  });

  it("an option change that leaves a failing test passing takes back the promise: no 'passed again' for runs that never failed", async () => {
    const { bot, org, nightly } = await nightlyWith([
      ["passed", "manual"],
      ["passed", "manual"],
      ["failed", "schedule"],
      ["failed", "schedule"],
    ]);
    await bot.command("/decipher", `subscribe test ${nightly.id}`);
    expect(await lastReply(bot)).toContain("I'll tell this channel when it passes");
    // Its manual runs never failed: under trigger:manual it is passing, and nothing is owed.
    await bot.command("/decipher", `subscribe test ${nightly.id} trigger:manual`);
    const changed = await lastReply(bot);
    expect(changed).toMatch(/Now: .*passing/);
    expect(changed).not.toMatch(/It has failed|I'll tell this channel when it passes/);

    await org.addRun(nightly.id, "passed", { triggeredBy: "manual" });
    await bot.cron();
    expect((await bot.posted()).map(visibleText).filter((t) => t.includes("passed again"))).toEqual([]);
  });

  it("an option change under which the test is failing promises its pass, and tells it", async () => {
    const { bot, org, nightly } = await nightlyWith([
      ["failed", "schedule"],
      ["failed", "schedule"],
      ["passed", "manual"],
      ["passed", "manual"],
    ]);
    await bot.command("/decipher", `subscribe test ${nightly.id}`);
    // Its schedule runs failed: under trigger:schedule it is failing, and its pass is owed.
    await bot.command("/decipher", `subscribe test ${nightly.id} trigger:schedule`);
    const changed = await lastReply(bot);
    expect(changed).toMatch(/Now: .*failed 2 runs in a row/);
    expect(changed).toMatch(/It has failed 2 runs in a row since .*: I'll tell this channel when it passes/);

    await org.addRun(nightly.id, "passed", { triggeredBy: "schedule" });
    await bot.cron();
    const told = (await bot.posted()).map(visibleText);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/passed again .*it had failed 2 runs in a row/);
  });

  it("a test failing when subscribed whose last failed run is rerun and passes: that pass is told, once", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const org = emulator.org(apiKey);
    const search = await org.addTest("Search results");
    await org.addRun(search.id, "failed");
    const last = await org.addRun(search.id, "failed");
    await bot.command("/decipher", `subscribe test ${search.id}`);
    await org.setRun(last.id, "passed");
    await bot.cron();
    const told = (await bot.posted()).map(visibleText);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /passed again .*it had failed 2 runs in a row, since .*, when this channel subscribed/,
    );
    expect(told[0]).toContain(`#${last.id}`);

    await org.addRun(search.id, "passed");
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
  });

  it("its pass refused by Slack (the bot was removed) is told once the channel takes posts again", async () => {
    const { bot, org } = await subscribedBot("subscribe test 102");
    const pass = await org.addRun(102, "passed");
    await bot.slackFault("chat.postMessage", "error", 1, { error: "not_in_channel" });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + 60_000));
    await bot.cron(new Date(t0 + 2 * 3_600_000));
    await bot.cron(new Date(t0 + 4 * 3_600_000));
    const told = (await bot.posted()).map(visibleText);
    expect(told.filter((t) => t.includes(`#${pass.id}`))).toHaveLength(1);
  });

  it("a test whose last run alone failed says so in words, never '1 run in a row'", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101");
    const test = await org.addTest("Onboarding wizard");
    await org.addRun(test.id, "passed");
    await org.addRun(test.id, "failed");
    await bot.command("/decipher", `subscribe test ${test.id}`);
    const reply = await lastReply(bot);
    expect(reply).toMatch(/Its last run failed .*: I'll tell this channel when it passes/);
    expect(reply).not.toMatch(/1 run in a row/);

    await org.addRun(test.id, "passed");
    await bot.cron();
    const told = (await bot.posted()).map(visibleText).filter((t) => t.includes("Onboarding wizard"));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/passed again .*: its last run had failed, .*, when this channel subscribed/);
    expect(told[0]).not.toMatch(/1 run in a row/);
  });

  it("a failure after subscribing opens its alert as always, and its recovery is told there, not twice", async () => {
    const { bot, org } = await subscribedBot("subscribe test 102");
    await org.addRun(102, "failed");
    await bot.cron();
    await org.addRun(102, "passed");
    await bot.cron();
    const texts = (await bot.messages("C0ALERTS")).filter((m) => m.bot_id).map(visibleText);
    expect(texts.filter((t) => /when this channel subscribed/.test(t))).toHaveLength(0);
    expect(texts.some((t) => /passed again after \d+ failed runs/.test(t))).toBe(true);
  });

  it("a passing test and a resolved collection say so", async () => {
    const { bot } = await subscribedBot("subscribe test 101");
    expect(await lastReply(bot)).toMatch(/Now: .*\n.*I'll post here when a new run fails/);
    await bot.command("/decipher", "subscribe collection 502");
    expect(await lastReply(bot)).toMatch(
      /Now: .*resolved.*\n.*It is resolved: I'll post here if it gets new sessions/,
    );
  });
});
