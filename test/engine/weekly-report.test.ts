import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { weekStart } from "../../src/engine/weekly-report.ts";
import { localWeekday } from "../../src/model/weekly-schedule.ts";
import { WeeklyStore } from "../../src/store/weekly-store.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const WEEK = 7 * DAY;

/** A channel watching a test and a collection, with a weekly report set for `when`. */
async function channelWithWeekly(when = "mon 09:00 Europe/Berlin") {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey });
  await bot.command("/decipher", "subscribe test 101");
  await bot.command("/decipher", "subscribe collection 501");
  const ack = JSON.parse((await bot.command("/decipher", `weekly ${when}`)).body) as { text: string };
  const schedule = await new WeeklyStore(env.STATE).get("C0ALERTS");
  if (!schedule) throw new Error("weekly report was not stored");
  return { bot, org: emulator.org(apiKey), due: new Date(schedule.nextDueAt), ack: ack.text };
}

const reports = async (bot: ReturnType<typeof createBot>) =>
  (await bot.posted()).filter((m) => /Weekly Decipher report/.test(m.text ?? ""));

describe("weekly report", () => {
  it("is due at the next such day and time in the channel's zone, never at once", async () => {
    const before = Date.now();
    const { bot, due, ack } = await channelWithWeekly("mon 09:00 Europe/Berlin");
    expect(ack).toMatch(/Weekly report set for Mondays at `09:00` Europe\/Berlin/);
    expect(localWeekday(due, "Europe/Berlin")).toBe("mon");
    expect(due.getTime()).toBeGreaterThan(before);
    expect(due.getTime() - before).toBeLessThanOrEqual(WEEK);
    await bot.cron();
    expect(await reports(bot)).toEqual([]);
  });

  it("its reply names the first time it is due, as the channel's object scheduled it (today's when still ahead)", async () => {
    const soon = new Date(Date.now() + 3 * MINUTE);
    const day = localWeekday(soon, "UTC");
    const hhmm = soon.toISOString().slice(11, 16);
    const { due, ack } = await channelWithWeekly(`${day} ${hhmm} UTC`);
    expect(due.getTime() - Date.now()).toBeLessThan(4 * MINUTE);
    // A date, not "today": read after that time, "today" would render "yesterday".
    expect(ack).toContain(
      `The first one arrives <!date^${Math.floor(due.getTime() / 1000)}^{date_short} at {time}|`,
    );
    expect(ack).not.toMatch(/next \w+day/);
  });

  it("goes out once when due, with the week's runs, a table of the tests and the collections", async () => {
    const { bot, org, due } = await channelWithWeekly();
    // The day before the report: within its 7 dates whatever day the test runs on.
    const dayBefore = new Date(due.getTime() - DAY).toISOString();
    await org.addRun(101, "failed", { createdAt: dayBefore });
    await org.addRun(101, "passed", { createdAt: dayBefore });
    await bot.cron(new Date(due.getTime() - MINUTE));
    expect(await reports(bot)).toEqual([]);
    // Overlapping crons: one report.
    await Promise.all([bot.cron(new Date(due.getTime() + 5_000)), bot.cron(new Date(due.getTime() + 6_000))]);
    await bot.cron(new Date(due.getTime() + MINUTE));
    const sent = await reports(bot);
    expect(sent).toHaveLength(1);
    const report = sent[0] as StoredMessage;
    const types = (report.blocks ?? []).map((b) => b.type);
    expect(types).toContain("table");
    const text = visibleText(report);
    expect(text).toContain("Checkout flow");
    expect(text).toMatch(/recover/);
    expect(text).toMatch(/Issue collections/);
    expect(text).toContain("Flakiest tests");
  });

  it("counts the 7 dates its header names: a run the evening before the first of them is not in its figures", async () => {
    const { bot, org, due } = await channelWithWeekly();
    const login = await org.addTest("Login with SSO");
    await bot.command("/decipher", `subscribe test ${login.id}`);
    const first = weekStart(due, "Europe/Berlin");
    // Within 7 × 24 h of the report, but on the day before its first date.
    await org.addRun(login.id, "failed", {
      createdAt: new Date(first.getTime() - 60 * MINUTE).toISOString(),
    });
    await org.addRun(login.id, "passed", { createdAt: new Date(due.getTime() - DAY).toISOString() });
    await bot.cron(new Date(due.getTime() + 5_000));
    const [report] = await reports(bot);
    const table = (report?.blocks ?? []).find((b) => b.type === "table") as { rows: unknown[][] } | undefined;
    const row = table?.rows.find((cells) => JSON.stringify(cells[0]).includes("Login with SSO"));
    const cell = (i: number) => (row?.[i] as { text?: string } | undefined)?.text;
    // Runs, failures, recoveries: the pass alone.
    expect([cell(2), cell(3), cell(4)]).toEqual(["1", "0", "0"]);
  });

  it("reads the channel's subscriptions from its index, not their KV copies", async () => {
    const { bot, org, due } = await channelWithWeekly();
    await org.addRun(101, "failed");
    for (const key of ["sub:C0ALERTS:test:101", "sub:C0ALERTS:collection:501", "index:subscriptions"])
      await env.STATE.delete(key);
    await bot.cron(new Date(due.getTime() + 5_000));
    const sent = await reports(bot);
    expect(sent).toHaveLength(1);
    const text = visibleText(sent[0] as StoredMessage);
    expect(text).toContain("Checkout flow");
    expect(text).toMatch(/Issue collections/);
  });

  it("then once a week, and one skipped by a missed cron goes out at the next cycle", async () => {
    const { bot, due } = await channelWithWeekly("wed 07:30 America/New_York");
    // The cron was down for five hours around the due time.
    await bot.cron(new Date(due.getTime() + 5 * 60 * MINUTE));
    expect(await reports(bot)).toHaveLength(1);
    await bot.cron(new Date(due.getTime() + 3 * 24 * 60 * MINUTE));
    expect(await reports(bot)).toHaveLength(1);
    await bot.cron(new Date(due.getTime() + WEEK + MINUTE));
    expect(await reports(bot)).toHaveLength(2);
    // The next one: the Wednesday after, 07:30 in New York (whatever daylight saving did meanwhile).
    const next = new Date((await new WeeklyStore(env.STATE).get("C0ALERTS"))?.nextDueAt ?? 0);
    expect(localWeekday(next, "America/New_York")).toBe("wed");
    expect(
      next.toLocaleTimeString("en-GB", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit" }),
    ).toBe("07:30");
    expect(Math.abs(next.getTime() - (due.getTime() + 2 * WEEK))).toBeLessThanOrEqual(60 * MINUTE);
  });

  it("is retried when Slack fails, sent once, and still goes out when Slack refuses its table", async () => {
    const { bot, due } = await channelWithWeekly();
    // A 5xx is an unknown outcome: the next cycle looks the report up, and sends it when Slack does not have it.
    await bot.slackFault("chat.postMessage", "500", 1);
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(await reports(bot)).toEqual([]);
    await bot.blockRollout(["table", "data_visualization"]);
    await bot.cron(new Date(due.getTime() + MINUTE));
    const sent = await reports(bot);
    expect(sent).toHaveLength(1);
    expect((sent[0]?.blocks ?? []).map((b) => b.type)).not.toContain("table");
    expect(visibleText(sent[0] as StoredMessage)).toMatch(/Checkout flow> · .* in \d+\+? runs/);
  });

  it("stops when turned off, and list shows it while it is on", async () => {
    const { bot, due } = await channelWithWeekly("fri 16:00 UTC");
    const list = JSON.parse((await bot.command("/decipher", "list")).body) as StoredMessage;
    expect(visibleText(list)).toMatch(/Weekly report on Fridays at `16:00` UTC/);
    // Its next time as a date: the reply is still read after that time has passed.
    expect(visibleText(list)).toContain(
      `next <!date^${Math.floor(due.getTime() / 1000)}^{date_short} at {time}|`,
    );
    const off = JSON.parse((await bot.command("/decipher", "weekly off")).body) as { text: string };
    expect(off.text).toBe("Weekly report turned off for this channel.");
    await bot.cron(new Date(due.getTime() + 5_000));
    expect(await reports(bot)).toEqual([]);
    expect(await new WeeklyStore(env.STATE).get("C0ALERTS")).toBeNull();
  });
});

describe("a collection's growth, counted from different moments", () => {
  it("says where each count starts, as a date token: the weekly report's seven days, the alert's and status's last alert", async () => {
    const { bot, org, due } = await channelWithWeekly();
    await org.grow(501, 6);
    await bot.cron();
    const alert = (await bot.posted()).find((m) =>
      /Issue collection grew/.test(m.text ?? ""),
    ) as StoredMessage;
    expect(alert).toBeDefined();
    // The alert counts from the subscription (no alert before it), and says so.
    expect(visibleText(alert)).toMatch(/ → \d+ sessions \(\+6 since <!date\^\d+\^/);
    const status = visibleText(JSON.parse((await bot.command("/decipher", "status")).body) as StoredMessage);
    expect(status).toMatch(/\d+ sessions · last told <!date\^\d+\^/);

    const at = new Date(due.getTime() + 5_000);
    await bot.cron(at);
    const [report] = await reports(bot);
    // From the start of the first of the 7 dates its header names, in the channel's zone.
    const firstDay = Math.floor(weekStart(at, "Europe/Berlin").getTime() / 1000);
    const text = visibleText(report as StoredMessage);
    expect(text).toMatch(new RegExp(`\\+\\d+ new sessions since <!date\\^${firstDay}\\^`));
    expect(text).not.toMatch(/sessions this week/);
  });
});
