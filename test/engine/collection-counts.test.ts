import { describe, expect, it } from "vitest";
import { emulator, emulatorUrl, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { subscriptionLine } from "../../src/kinds/messages.ts";
import { dateToken } from "../../src/messages/mrkdwn.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { objectState } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Growth compares the collection's all-time `sessionCount`, not the sessions of the listing's
// time window; a count that drops (retention) resets the mark, so it never blocks alerts.

const MINUTE = 60_000;

async function vendorView(apiKey: string, collectionId: number) {
  const res = await fetch(
    `${emulatorUrl}/api/v1/monitoring/issue-collections/${collectionId}/sessions?limit=50`,
    { headers: { authorization: `Bearer ${apiKey}` } },
  );
  const body = (await res.json()) as {
    data: unknown[];
    hasMore: boolean;
    collection: { sessionCount: number };
  };
  return {
    inWindow: body.hasMore ? Number.POSITIVE_INFINITY : body.data.length,
    count: body.collection.sessionCount,
  };
}

describe("collection counts", () => {
  it("the baseline and growth use the all-time sessionCount, not the default window's sessions", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const before = await vendorView(org.apiKey, 501);
    // The demo collection has sessions over five days: the 24 h window shows fewer.
    expect(before.inWindow).toBeLessThan(before.count);
    expect((await objectState<CollectionSubscription>(bot, "collection", 501))?.alertedCount).toBe(
      before.count,
    );

    const grown = await org.grow(501, 5);
    await bot.cron();
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toContain(`${before.count} → ${grown.collection.sessionCount}`);
    expect((await objectState<CollectionSubscription>(bot, "collection", 501))?.alertedCount).toBe(
      grown.collection.sessionCount,
    );
  });

  it("a count that drops does not block later alerts: growth is measured from the lower count", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const ctl = emulator.org(org.apiKey);
    const start = (await vendorView(org.apiKey, 501)).count;
    const dropped = (await ctl.expire(501, 10)).collection.sessionCount;
    expect(dropped).toBe(start - 10);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);
    expect((await objectState<CollectionSubscription>(bot, "collection", 501))?.alertedCount).toBe(dropped);

    // Back up by the default threshold from the lower count, still below the old mark: alerts.
    const threshold = Math.max(1, Math.min(5, Math.ceil(dropped * 0.5)));
    const grown = await org.grow(501, threshold);
    expect(grown.collection.sessionCount).toBeLessThan(start);
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(visibleText(posted[0] ?? {})).toContain(`${dropped} → ${grown.collection.sessionCount}`);
  });

  it("a drop after an alert, then growth: a reply in the first alert's thread, from the lower count", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const ctl = emulator.org(org.apiKey);
    const t0 = Date.now();
    await org.grow(501, 3);
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toHaveLength(1);
    const dropped = (await ctl.expire(501, 8)).collection.sessionCount;
    await bot.cron(new Date(t0 + MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    await org.grow(501, 2);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    await org.grow(501, 1);
    await bot.cron(new Date(t0 + 3 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(2);
    expect(posted[1]?.thread_ts).toBe(posted[0]?.ts);
    expect(visibleText(posted[1] ?? {})).toContain(`${dropped} → ${dropped + 3}`);
  });

  it("a drop writes once; the same lower count again writes nothing", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501");
    const ctl = emulator.org(org.apiKey);
    await ctl.expire(501, 4);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    const idle = await runPollCycle(bot.env, readConfig(bot.env), { now: new Date(t0 + MINUTE) });
    expect(idle.writes).toEqual({ storage: 0, kv: 0 });
  });

  it("a drop after an alert is no count told: status and Home name the alert's count, and count growth from the drop", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:3");
    const ctl = emulator.org(org.apiKey);
    const t0 = Date.now();
    const told = (await org.grow(501, 3)).collection.sessionCount;
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toHaveLength(1);
    const dropped = (await ctl.expire(501, 8)).collection.sessionCount;
    await bot.cron(new Date(t0 + MINUTE));
    expect(await bot.posted()).toHaveLength(1);
    const status = visibleText(JSON.parse((await bot.command("/decipher", "status")).body) as StoredMessage);
    const state = await objectState<CollectionSubscription>(bot, "collection", 501);
    const home = subscriptionLine(
      state as CollectionSubscription,
      "https://app.example",
      null,
      new Date(t0 + MINUTE),
    );
    for (const page of [status, home]) {
      expect(page).toContain(`${told} sessions · last told ${dateToken(new Date(t0))}`);
      expect(page).not.toContain(`${dropped} sessions · last told`);
      expect(page).toContain(
        `growth counted from ${dropped} sessions as of ${dateToken(new Date(t0 + MINUTE))}`,
      );
    }
  });
});
