import { describe, expect, it } from "vitest";
import { type Bot, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { findElement } from "../../dev/slack/payloads.ts";
import { decodeSnoozeValue } from "../../src/messages/triage-values.ts";
import type { SnoozeChoice } from "../../src/model/triage-state.ts";
import { objectState, runIdsIn, startWithinOneUtcDay } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

// The snooze reply promises "nothing is posted for this item until the snooze ends": a timed
// snooze keeps that promise through a pass. Only "until it passes" ends on a pass.

const MINUTE = 60_000;
const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);

/** Picks the alert's Snooze option that `wanted` accepts, as a person would in Slack's menu. */
async function snooze(
  bot: Bot,
  alert: StoredMessage,
  what: string,
  wanted: (choice: SnoozeChoice) => boolean,
) {
  const menu = findElement(alert, "triage_snooze");
  const options = ((menu?.element as { options?: { value: string }[] } | undefined)?.options ?? []).map(
    (o) => o.value,
  );
  const value = options.find((v) => {
    const choice = decodeSnoozeValue(v)?.choice;
    return choice !== undefined && wanted(choice);
  });
  if (!value) throw new Error(`the Snooze menu offers no "${what}"`);
  await bot.choose(alert, "triage_snooze", value);
}

/** A channel watching one test, whose first failure is alerted at `t0`: the alert. */
async function failingAlert() {
  const { bot, org, tests } = await channelWatching(1);
  const test = tests[0] as { id: number };
  const t0 = Date.now();
  await org.addRun(test.id, "failed");
  await bot.cron(new Date(t0));
  return { bot, org, test, t0, alert: topLevel(await bot.posted())[0] as StoredMessage };
}

const snoozeFor = (bot: Bot, alert: StoredMessage, hours: number) =>
  snooze(bot, alert, `for ${hours} h`, (c) => c.kind === "for" && c.hours === hours);

describe("a timed snooze holds for its time", () => {
  it("a 1 h snooze holds through a pass: the snoozed test is in no outage message and gets no top-level alert until the hour ends", async () => {
    const { bot, org, tests } = await channelWatching(4);
    const [snoozed, ...others] = tests;
    if (!snoozed) throw new Error("channelWatching(4) watches four tests");
    const t0 = Date.now();
    await org.addRun(snoozed.id, "failed");
    await bot.cron(new Date(t0));
    const alert = topLevel(await bot.posted())[0] as StoredMessage;
    expect(runIdsIn(visibleText(alert))).toHaveLength(1);
    await snoozeFor(bot, alert, 1);
    expect((await objectState(bot, "test", snoozed.id))?.snooze?.choice).toEqual({ kind: "for", hours: 1 });

    // A pass does not end a timed snooze.
    await org.addRun(snoozed.id, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await objectState(bot, "test", snoozed.id))?.snooze).not.toBeNull();

    // Every test fails at once: the outage message names the others, never the snoozed one.
    const snoozedRuns = [(await org.addRun(snoozed.id, "failed")).id];
    const otherRuns = [];
    for (const test of others) otherRuns.push((await org.addRun(test.id, "failed")).id);
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const parents = topLevel(await bot.posted());
    expect(parents).toHaveLength(2);
    const outage = visibleText(parents[1] as StoredMessage);
    expect(outage).toMatch(/3 tests failing at once/);
    expect(runIdsIn(outage).sort()).toEqual([...otherRuns].sort());

    // Three minutes later, and for the rest of the hour: no top-level alert, no reply either.
    snoozedRuns.push((await org.addRun(snoozed.id, "failed")).id);
    await bot.cron(new Date(t0 + 6 * MINUTE));
    await bot.cron(new Date(t0 + 59 * MINUTE));
    const during = await bot.posted();
    expect(topLevel(during)).toHaveLength(2);
    for (const id of snoozedRuns) expect(during.flatMap((m) => runIdsIn(visibleText(m)))).not.toContain(id);

    // When the hour ends, one message sums up what the snooze held back.
    await bot.cron(new Date(t0 + 61 * MINUTE));
    const after = await bot.posted();
    const summary = after.filter((m) => !during.some((d) => d.ts === m.ts)).map(visibleText);
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatch(/failed 2 more times while snoozed, and its last run failed/);
    // It names the test with a link: it may stand alone in the channel.
    expect(summary[0]).toMatch(new RegExp(`ended: <https://[^|>]+/tests/${snoozed.id}\\|`));
  });
});

describe("a snooze until it passes ends on the pass", () => {
  it("on a flaky test's alert: the pass ends it, the alert drops it, and one line in the flaky thread sums it up", async () => {
    const { bot, org, tests } = await channelWatching(1);
    const test = tests[0] as { id: number };
    // Its flaky thread is the day's: the test's few minutes stay within one UTC day.
    const t0 = startWithinOneUtcDay(10 * MINUTE);
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
      await org.addRun(test.id, status);
    await bot.cron(new Date(t0));
    const flaky = (await bot.posted()).find((m) => /is flaky/.test(visibleText(m))) as StoredMessage;
    expect(flaky).toBeDefined();
    // A pass that ran before the click, not polled yet, is not the pass the snooze waits for.
    await org.addRun(test.id, "passed");
    await snooze(bot, flaky, "until it passes", (c) => c.kind === "until-pass");
    const card = async () =>
      visibleText((await bot.posted()).find((m) => m.ts === flaky.ts) as StoredMessage);
    expect(await card()).toMatch(/snoozed/);

    // A failure while snoozed is counted, not posted; the pass after it ends the snooze.
    await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await objectState(bot, "test", test.id))?.snooze?.choice).toEqual({ kind: "until-pass" });
    const during = await bot.posted();
    await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect((await objectState(bot, "test", test.id))?.snooze ?? null).toBeNull();
    expect(await card()).not.toMatch(/snoozed/);
    const after = await bot.posted();
    const summary = after.filter((m) => !during.some((d) => d.ts === m.ts));
    expect(summary.map(visibleText)).toEqual([
      expect.stringMatching(/failed 1 more time while snoozed, and its last run passed/),
    ]);
    // In the day's flaky thread, as the alert promised its failures would be: no new top-level post.
    expect(summary[0]?.thread_ts).toBe(flaky.ts);

    // The next failure goes to the thread again.
    const next = await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const reply = (await bot.posted()).find((m) => runIdsIn(visibleText(m)).includes(next.id));
    expect(reply?.thread_ts).toBe(flaky.ts);
  });

  it("on a failing test's alert: a pass that ran before the click recovers the alert but keeps the snooze", async () => {
    const { bot, org, test, t0, alert } = await failingAlert();
    // The test passes again, then someone snoozes the still-red alert before the bot has looked.
    await org.addRun(test.id, "passed");
    await snooze(bot, alert, "until it passes", (c) => c.kind === "until-pass");
    const failed = await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await objectState(bot, "test", test.id))?.snooze?.choice).toEqual({ kind: "until-pass" });
    expect(topLevel(await bot.posted())).toHaveLength(1);
    expect((await bot.posted()).flatMap((m) => runIdsIn(visibleText(m)))).not.toContain(failed.id);
  });

  it("on a failing test's alert: the pass ends it, the alert turns green, and one line in its thread sums up what it held", async () => {
    const { bot, org, test, t0, alert } = await failingAlert();
    await snooze(bot, alert, "until it passes", (c) => c.kind === "until-pass");
    await org.addRun(test.id, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    const during = await bot.posted();
    await org.addRun(test.id, "passed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect((await objectState(bot, "test", test.id))?.snooze ?? null).toBeNull();
    const card = visibleText((await bot.posted()).find((m) => m.ts === alert.ts) as StoredMessage);
    expect(card).toMatch(/Recovered/);
    expect(card).not.toMatch(/snoozed/);
    // The snooze reply promised "then one message sums up".
    const summary = (await bot.posted()).filter((m) => !during.some((d) => d.ts === m.ts));
    expect(summary.map(visibleText)).toEqual([
      expect.stringMatching(/failed 1 more time while snoozed, and its last run passed/),
    ]);
    expect(summary[0]?.thread_ts).toBe(alert.ts);
  });
});
