import { describe, expect, it } from "vitest";
import type { StoredMessage } from "../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../src/messages/action-ids.ts";
import { health, ledgerOf, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A collection keeps the same ledger as a test (src/model/run-ledger.ts): each growth it
// alerted on is a row keyed by the count it grew from, with its fate, and growth owed a fate
// for over 5 minutes is overdue on /health and in status.

const MINUTE = 60_000;

describe("a collection's ledger", () => {
  it("records each growth it told: the first as announced, later growth as threaded under it", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:2");
    const t0 = Date.now();
    await org.grow(501, 2);
    await bot.cron(new Date(t0));
    await org.grow(501, 3);
    await bot.cron(new Date(t0 + MINUTE));
    const posts = await bot.posted();
    const rows = (await ledgerOf(bot, "collection", 501)).filter((r) => r.status === "grown");
    expect(rows).toHaveLength(2);
    const announced = rows.find((r) => r.fate === "announced");
    const threaded = rows.find((r) => r.fate === "threaded");
    expect(posts.map((m) => m.ts)).toContain(announced?.ts);
    expect(threaded).toMatchObject({ parentTs: announced?.ts });
    expect(posts.map((m) => m.ts)).toContain(threaded?.ts);
    expect((await health(bot)).overdue).toBe(0);
  });

  it("growth Slack keeps refusing is overdue after 5 minutes, on /health and in status, then told", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:2");
    const t0 = Date.now();
    await org.grow(501, 2);
    await bot.slackFault("chat.postMessage", "429", 2, { retryAfter: 30 });
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);
    const [row] = (await ledgerOf(bot, "collection", 501)).filter((r) => r.status === "grown");
    expect(row).toMatchObject({ fate: null });

    await bot.cron(new Date(t0 + 6 * MINUTE));
    // Slack's backoff holds the next try: the growth is still owed a fate, and that shows.
    expect(await bot.posted()).toEqual([]);
    expect((await health(bot)).overdue).toBe(1);
    expect(await statusText(bot)).toMatch(/Growth seen over 5 minutes ago has not been told yet/);
    for (let i = 7; i < 20 && (await bot.posted()).length === 0; i++)
      await bot.cron(new Date(t0 + i * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    await bot.cron(new Date(t0 + 21 * MINUTE));
    expect((await ledgerOf(bot, "collection", 501)).find((r) => r.status === "grown")?.fate).toBe(
      "announced",
    );
    expect((await health(bot)).overdue).toBe(0);
  });

  it("growth while snoozed is counted, not posted, and not owed a fate", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:2");
    const t0 = Date.now();
    await org.grow(501, 2);
    await bot.cron(new Date(t0));
    const [alert] = await bot.posted();
    if (!alert) throw new Error("no first alert");
    const forAnHour = snoozeOptions(alert).find((v) => v.endsWith("for:1"));
    if (!forAnHour) throw new Error("no 1 h snooze offered");
    await bot.choose(alert, ACTION_IDS.triageSnooze, forAnHour);
    await org.grow(501, 3);
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 7 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    const rows = (await ledgerOf(bot, "collection", 501)).filter((r) => r.status === "grown");
    expect(rows.find((r) => r.fate === "counted")).toMatchObject({ reason: "snoozed" });
    expect((await health(bot)).overdue).toBe(0);
  });
});

/** The values a message's snooze menu offers. */
function snoozeOptions(message: StoredMessage): string[] {
  const out: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const o = node as Record<string, unknown>;
      if (o.action_id === ACTION_IDS.triageSnooze && Array.isArray(o.options))
        for (const opt of o.options as { value: string }[]) out.push(opt.value);
      else for (const v of Object.values(o)) walk(v);
    }
  };
  walk(message.blocks ?? []);
  return out;
}
