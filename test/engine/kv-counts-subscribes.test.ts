import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { objectState, statusText } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// Workers KV allows 1,000 writes a day on the Free plan: a subscription's copy there is
// written when a person subscribes, so runs, alerts and clicks cost none of them.
const copy = () => new SubscriptionStore(env.STATE).get("C0ALERTS", "test", 101);

describe("Workers KV counts subscribes, not runs", () => {
  it("failures, their alert, a mute and a recovery write no KV copy; status still shows the live state", async () => {
    const { bot, org } = await subscribedBot();
    const subscribed = await copy();
    expect(subscribed?.kind).toBe("test");
    let kvWrites = 0;
    const cycle = async () => {
      kvWrites += (await runPollCycle(bot.env, readConfig(bot.env), { now: new Date() })).writes.kv;
    };

    await org.addRun(101, "failed");
    await cycle();
    await org.addRun(101, "failed");
    await cycle();
    const [alert] = await bot.posted();
    expect(alert).toBeDefined();
    await bot.click(alert as NonNullable<typeof alert>, "triage_mute");
    await org.addRun(101, "passed");
    await cycle();

    const live = await objectState(bot, "test", 101);
    expect(live?.muted?.by).toBeTruthy();
    expect(await statusText(bot)).toMatch(/muted/i);
    expect(kvWrites).toBe(0);
    expect(await copy()).toEqual(subscribed);
  });

  it("subscribing again with other options writes the copy with them", async () => {
    const { bot } = await subscribedBot();
    const before = await copy();
    await bot.command("/decipher", "subscribe test 101 page:/checkout");
    const after = await copy();
    expect(before?.kind === "test" && (before.options?.page ?? null)).toBeNull();
    expect(after?.kind === "test" && after.options?.page).toBe("/checkout");
  });
});
