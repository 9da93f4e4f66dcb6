import { describe, expect, it } from "vitest";
import { emulator, visibleText } from "../../dev/in-workerd/bot.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { objectState, runIdsIn, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A run the bot cannot read is set aside on its own: it never blocks the runs around it.

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe("a run the bot cannot read among failures", () => {
  it.each([
    ["an unknown status", { status: "cancelled" }, "status"],
    ["a null startTime", { startTime: null }, "startTime"],
  ])("(%s) does not stop alerts, and is reported once in status", async (_label, raw, field) => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const first = await ctl.addRun(101, "failed");
    const bad = await ctl.addRun(101, "failed", { raw });
    const second = await ctl.addRun(101, "failed");

    await bot.cron();
    const posted = await bot.posted();
    // The two readable failures: one alert and one reply in its thread; nothing for the bad run.
    expect(posted).toHaveLength(2);
    const [parent, reply] = posted;
    expect(runIdsIn(visibleText(parent ?? {}))).toContain(first.id);
    expect(reply?.thread_ts).toBe(parent?.ts);
    expect(runIdsIn(visibleText(reply ?? {}))).toContain(second.id);
    expect(posted.flatMap((m) => runIdsIn(visibleText(m)))).not.toContain(bad.id);

    // Status names the skipped run and the field, once, however many polls see it again.
    await bot.cron();
    await bot.cron();
    const status = await statusText(bot);
    expect(occurrences(status, `run #${bad.id}`)).toBe(1);
    expect(status).toContain(field);
    expect(status).toMatch(/unreadable/);
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.quarantined?.map((q) => q.what)).toEqual([`run #${bad.id}`]);
    // The watermark went past it: a later poll has nothing left to retry.
    expect(state?.lastRunId).toBe(second.id);

    // Later failures still alert, in the same thread.
    const later = await ctl.addRun(101, "failed");
    await bot.cron();
    const after = await bot.posted();
    expect(after).toHaveLength(3);
    expect(after[2]?.thread_ts).toBe(parent?.ts);
    expect(runIdsIn(visibleText(after[2] ?? {}))).toContain(later.id);
    expect(await bot.posted()).toHaveLength(3);
  });

  it("a run that becomes unreadable after the baseline, then readable and failed, is announced once", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const odd = await ctl.addRun(101, "running", { raw: { status: "queued" } });
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
    await ctl.setRun(odd.id, { status: "failed", raw: null });
    await bot.cron();
    await bot.cron();
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(odd.id);
  });

  // The ledger holds the unreadable run as owed a fate, so a readable run after it does not
  // hide it: when it turns into a readable failure it is announced.
  it("a run unreadable while a later run passes, then failing readably, is announced", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    const odd = await ctl.addRun(101, "running", { raw: { status: "queued" } });
    await ctl.addRun(101, "passed");
    await bot.cron();
    await ctl.setRun(odd.id, { status: "failed", raw: null });
    await bot.cron();
    await bot.cron();
    expect(await bot.posted()).toHaveLength(1);
  });

  it("a page of nothing but unreadable runs is not an outage: no error, no failing notice", async () => {
    const { bot, org } = await subscribedBot();
    const ctl = emulator.org(org.apiKey);
    for (let i = 0; i < 3; i++) await ctl.addRun(101, "failed", { raw: { createdAt: 12345 } });
    await bot.cron();
    const state = await objectState<TestSubscription>(bot, "test", 101);
    expect(state?.lastError).toBeNull();
    expect(state?.erroringSince ?? null).toBeNull();
    expect(state?.quarantined).toHaveLength(3);
    expect(await bot.posted()).toEqual([]);
  });
});
