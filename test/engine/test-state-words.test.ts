import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { DigestStore } from "../../src/store/digest-store.ts";
import { statusText } from "../helpers/cases.ts";
import { eventsOf } from "../helpers/events.ts";

// The digest, `/decipher status` and App Home say a test's state with one function of the
// same facts (src/model/test-state.ts, src/messages/test-state-line.ts): read side by side,
// they never disagree. A date token reads as its fallback here, the form a table cell shows.

const MINUTE = 60_000;
const RUN_STATE =
  /(?:broken|new failure|flaky|failing|passing|running|unknown): [^\n·]*[^\n· ](?: · called flaky \d{4}-\d\d-\d\d \d\d:\d\d UTC)?/;

/** Date tokens as their fallback text. */
const plain = (text: string) => text.replace(/<!date\^\d+\^[^|>]*\|([^>]*)>/g, "$1");

/** The state words in the text, after the test's name (the digest, status and Home each name it). */
function stateAfter(text: string, name: string): string {
  const from = plain(text).indexOf(name);
  expect(from, `${name} in ${text}`).toBeGreaterThanOrEqual(0);
  const found = plain(text).slice(from).match(RUN_STATE)?.[0].trim() ?? "";
  expect(found, `a state after ${name}`).not.toBe("");
  return found;
}

/** Home's state in one word, read at a glance ("flaky"): the first word of the others' state. */
function wordAfter(text: string, name: string): string {
  const from = plain(text).indexOf(name);
  expect(from, `${name} in ${text}`).toBeGreaterThanOrEqual(0);
  return (
    plain(text)
      .slice(from)
      .match(/ — :[a-z_]+: (broken|new failure|flaky|failing|passing|running|unknown)\b/)?.[1] ?? ""
  );
}
const firstWord = (state: string) => state.split(":")[0];

/** A test with runs of its own, subscribed with a digest due, and called flaky by the bot. */
async function calledFlaky() {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  const org = emulator.org(apiKey);
  const test = await org.addTest("Flappy flow");
  await bot.command("/decipher", `subscribe test ${test.id}`);
  const due = new Date(Date.now() + 5 * MINUTE);
  await bot.command("/decipher", `digest ${due.toISOString().slice(11, 16)} UTC`);
  const t0 = Date.now();
  for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
    await org.addRun(test.id, status);
  await bot.cron(new Date(t0));
  expect(visibleText((await bot.posted())[0] as StoredMessage)).toMatch(/is flaky/);
  return { bot, org, test, t0 };
}

/** What the digest, status and Home say of the test's state now. */
async function sayings(bot: ReturnType<typeof createBot>, name: string) {
  const status = stateAfter(await statusText(bot), name);
  const events = eventsOf(bot);
  await events.openHome();
  const home = wordAfter(visibleText({ blocks: (await events.views()).home?.blocks ?? [] }), name);
  const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
  await bot.cron(new Date(Date.parse(due) + 5_000));
  const digest = (await bot.posted()).find((m) => /Daily Decipher digest/.test(m.text ?? ""));
  return { digest: stateAfter(visibleText(digest as StoredMessage), name), status, home };
}

describe("a test's state reads the same in the digest, status and Home (there, its first word)", () => {
  it("called flaky, then failing 3 more runs in a row: broken, and called flaky, in all three", async () => {
    const { bot, org, test, t0 } = await calledFlaky();
    for (let i = 0; i < 3; i++) await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    const said = await sayings(bot, "Flappy flow");
    // The failure that made it flaky and the three since.
    expect(said.digest).toMatch(/^broken: failed 4 runs in a row · called flaky \d{4}-/);
    expect(said.status).toBe(said.digest);
    expect(said.home).toBe(firstWord(said.digest));
  });

  it("called flaky, then passing: flaky, its last run passed, in all three", async () => {
    const { bot, org, test, t0 } = await calledFlaky();
    await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    const said = await sayings(bot, "Flappy flow");
    expect(said.digest).toMatch(/^flaky: .*its last run passed · called flaky \d{4}-/);
    expect(said.status).toBe(said.digest);
    expect(said.home).toBe(firstWord(said.digest));
  });

  it("called flaky and nothing since: flaky, its last run failed, in all three", async () => {
    const { bot } = await calledFlaky();
    const said = await sayings(bot, "Flappy flow");
    expect(said.digest).toMatch(/^flaky: .*its last run failed · called flaky \d{4}-/);
    expect(said.status).toBe(said.digest);
    expect(said.home).toBe(firstWord(said.digest));
  });
});

describe("a failing streak older than a day", () => {
  it("is counted whole: the demo's test 102, failing for 5 runs 6 hours apart, is 'failed 5 runs in a row'", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 102");
    const due = new Date(Date.now() + 5 * MINUTE);
    await bot.command("/decipher", `digest ${due.toISOString().slice(11, 16)} UTC`);
    // Before its first poll: the state read from the runs the subscription recorded.
    expect(stateAfter(await statusText(bot), "Login with SSO")).toBe("broken: failed 5 runs in a row");
    const org = emulator.org(apiKey);
    await org.addRun(102, "failed");
    await bot.cron(new Date());
    // After a poll, with the new failure: the alert's count, and status's, from one streak.
    const alert = (await bot.posted()).find((m) => /Login with SSO/.test(visibleText(m)));
    expect(visibleText(alert as StoredMessage)).toMatch(/broken — failed 6 runs in a row/);
    const said = await sayings(bot, "Login with SSO");
    expect(said.status).toBe("broken: failed 6 runs in a row");
    expect(said.home).toBe(firstWord(said.status));
    expect(said.digest).toBe(said.status);
    // Beside the day's columns (fewer failures than 6), the digest says where the rest are.
    const digest = (await bot.posted()).find((m) => /Daily Decipher digest/.test(m.text ?? ""));
    expect(visibleText(digest as StoredMessage)).toContain(
      "failed 6 runs in a row · its first failures were before these 24 h",
    );
  });
});
