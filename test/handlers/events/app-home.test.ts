import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../../dev/in-workerd/bot.ts";
import { FIND_SESSIONS_ACTION_ID } from "../../../src/messages/home-view.ts";
import type { Subscription } from "../../../src/model/subscription.ts";
import { channelObject, objectNames } from "../../../src/objects/addresses.ts";
import { SubscriptionStore } from "../../../src/store/subscription-store.ts";

import { channelWatching } from "../../helpers/emulator.ts";
import { eventsOf } from "../../helpers/events.ts";

async function setup() {
  const bot = createBot({ apiKey: await newOrg() });
  const events = eventsOf(bot);
  return { bot, events };
}

const publishes = async (bot: ReturnType<typeof createBot>) =>
  (await bot.slackCalls()).filter((c) => c.method === "views.publish");

describe("App Home (app_home_opened → views.publish)", () => {
  it("shows a muted subscription as muted (who, when) with Unmute, which unmutes it, publishes the Home again and gives the alert its controls back", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await emulator.org(apiKey).addRun(101, "failed");
    await bot.cron();
    const [alert] = await bot.posted();
    await bot.click(alert as StoredMessage, "triage_mute");
    await events.openHome();
    const muted = visibleText({ blocks: (await events.views()).home?.blocks ?? [] });
    expect(muted).toMatch(/:no_bell: \*muted\* by <@U0ALICE> <!date\^\d+\^/);
    expect(JSON.stringify((await events.views()).home?.blocks)).toContain("triage_unmute");

    expect((await events.clickInHome("triage_unmute")).status).toBe(200);
    const store = new SubscriptionStore(env.STATE);
    expect((await store.get("C0ALERTS", "test", 101))?.muted ?? null).toBeNull();
    const after = (await events.views()).home?.blocks ?? [];
    expect(visibleText({ blocks: after })).not.toMatch(/muted/);
    expect(JSON.stringify(after)).not.toContain("triage_unmute");
    expect(await publishes(bot)).toHaveLength(2);
    // The alert itself is live again: its controls are back, and it says who unmuted it.
    const live = (await bot.messages()).find((m) => m.ts === (alert as StoredMessage).ts) as StoredMessage;
    expect(visibleText(live)).toMatch(/unmuted by <@U0ALICE>/);
    const controls = JSON.stringify(live.blocks);
    for (const id of ["triage_acknowledge", "triage_snooze", "triage_mute"]) expect(controls).toContain(id);
    expect(controls).not.toContain("triage_unmute");
  });

  it("says a test the bot called flaky is flaky, linking the day's thread, not 'no failure streak on record'", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    const events = eventsOf(bot);
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
      await emulator.org(apiKey).addRun(101, status);
    await bot.cron();
    const alert = (await bot.posted()).find((m) => /is flaky/.test(visibleText(m))) as StoredMessage;
    expect(alert).toBeDefined();
    await events.openHome();
    const home = visibleText({ blocks: (await events.views()).home?.blocks ?? [] });
    // The state in a word, as status and the digest name it, then the day's thread.
    expect(home).toMatch(/:large_yellow_circle: flaky · <[^|>]*\|flaky thread> since <!date\^\d+\^[^>]*>/);
    expect(home).toContain(`p${alert.ts.replace(".", "")}`);
    // Since the bot called it flaky: its alert's own time, not when the run started.
    expect(home).toContain(`flaky thread> since <!date^${Math.floor(Number(alert.ts))}^`);
    expect(home).not.toMatch(/no failure streak on record/);
  });

  it("shows each channel's subscriptions with their health, triage and last alerts", async () => {
    const { bot, events } = await setup();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0ALERTS" });
    await bot.command("/decipher", "subscribe collection 501", { channelId: "C0DEMO" });
    const store = new SubscriptionStore(env.STATE);
    // A state the engine would write: its readable copy, and its row of the channel's index.
    const team = await bot.team();
    const show = async (sub: Subscription) => {
      await store.update(sub);
      await channelObject(env as never, objectNames.channel(team, sub.channelId)).indexSubscription(
        sub,
        new Date().toISOString(),
      );
    };
    const t101 = await store.get("C0ALERTS", "test", 101);
    const t102 = await store.get("C0ALERTS", "test", 102);
    const c501 = await store.get("C0DEMO", "collection", 501);
    if (!t101 || !t102 || !c501 || t101.kind !== "test" || c501.kind !== "collection")
      throw new Error("setup");
    await show({
      ...t101,
      lastError: {
        message: "Decipher is unavailable right now",
        at: new Date().toISOString(),
        source: "vendor",
      },
      streak: { threadTs: "1732200000.000100", failedRuns: 3, firstRunId: 1, lastRunId: 3 },
      // Fields the engine adds: shown when present.
      acknowledgedBy: [{ userId: "U0BOB", at: new Date().toISOString() }],
    } as never);
    await show({
      ...t102,
      paused: { reason: "the bot was removed from the channel", at: new Date().toISOString() },
    });
    await show({
      ...c501,
      threadTs: "1732200000.000200",
      snooze: {
        by: "U0ALICE",
        at: new Date().toISOString(),
        until: null,
        choice: { kind: "until-growth", sessions: 10 },
        missedFailures: 0,
        countAtStart: 18,
      },
    } as never);

    const ack = await events.openHome("U0ALICE");
    expect(ack.status).toBe(200);
    const [call] = await publishes(bot);
    expect(call?.ok).toBe(true);
    const { home } = await events.views("U0ALICE");
    const text = visibleText({ blocks: home?.blocks ?? [] });
    expect(text).toContain("<#C0ALERTS>");
    expect(text).toContain("<#C0DEMO>");
    expect(text).toContain("Checkout flow");
    expect(text).toMatch(/polling failed since .*Decipher is unavailable right now/);
    // In the words status uses for a pause: since when, why, and what ends it.
    expect(text).toMatch(/paused\* since <!date[^>]*>: the bot was removed from the channel Subscribe again/);
    expect(text).toMatch(/<@U0BOB> is looking since <!date\^\d+\^/);
    expect(text).toContain("snoozed by <@U0ALICE> until 10 more sessions");
    expect(text).not.toContain("polling OK");
    // Last alerts link to their messages in Slack.
    expect(text).toMatch(
      /<https:\/\/acme-[a-z0-9]+\.slack\.com\/archives\/C0ALERTS\/p1732200000000100\|failure thread>/,
    );
    expect(text).toMatch(/<!date\^\d+\^[^>]*> · <[^|>]*archives\/C0DEMO\/p1732200000000200\|alert thread>/);
    // A date token inside a link label is escaped text: Slack would show it raw.
    expect(text).not.toMatch(/\|[^>]*(<|&lt;)!date/);
    expect(text).not.toContain("&lt;!date");
    expect(text).toContain("only each subscription's latest alert thread is recorded");
    expect(JSON.stringify(home?.blocks)).toContain(FIND_SESSIONS_ACTION_ID);
  });

  it("reads each channel's index once, not each subscription's KV copy", async () => {
    const { bot, tests } = await channelWatching(15);
    const events = eventsOf(bot);
    await events.openHome();
    const before = bot.kv.reads;
    await events.openHome("U0BOB");
    const home = visibleText({ blocks: (await events.views("U0BOB")).home?.blocks ?? [] });
    expect(home).toMatch(/15 subscriptions/);
    for (const t of tests) expect(home).toContain(t.name);
    expect(bot.kv.reads - before).toBe(1);
  });

  it("shows each person only the channels they are in: a private channel stays off others' Home", async () => {
    const { bot, events } = await setup();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0PRIVATE" });
    await events.openHome("U0ALICE");
    await events.openHome("U0BOB");
    const alice = JSON.stringify((await events.views("U0ALICE")).home?.blocks);
    const bob = JSON.stringify((await events.views("U0BOB")).home?.blocks);
    expect(alice).toContain("<#C0PRIVATE>");
    expect(alice).toContain("<#C0ALERTS>");
    expect(bob).toContain("<#C0ALERTS>");
    expect(bob).not.toContain("C0PRIVATE");
    expect(bob).not.toContain("/tests/102");
  });

  it("shows no channel when Slack cannot say which channels the person is in", async () => {
    const { bot, events } = await setup();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await bot.slackFault("users.conversations", "error", 1, { error: "missing_scope" });
    await events.openHome("U0BOB");
    const home = (await events.views("U0BOB")).home?.blocks ?? [];
    expect(visibleText({ blocks: home })).toMatch(/could not tell me which channels you are in/);
    expect(JSON.stringify(home)).not.toContain("C0ALERTS");
  });

  it("says how to start when nothing is subscribed", async () => {
    const { bot, events } = await setup();
    await events.openHome();
    const { home } = await events.views();
    expect(visibleText({ blocks: home?.blocks ?? [] })).toContain("/decipher subscribe test");
    expect(await publishes(bot)).toHaveLength(1);
  });

  it("does not republish an unchanged Home, and republishes once something changed", async () => {
    const { bot, events } = await setup();
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await events.openHome();
    await events.openHome();
    await events.openHome();
    expect(await publishes(bot)).toHaveLength(1);
    await bot.command("/decipher", "subscribe test 102", { channelId: "C0ALERTS" });
    await events.openHome();
    expect(await publishes(bot)).toHaveLength(2);
    // Another person's Home is theirs to publish.
    await events.openHome("U0BOB");
    expect(await publishes(bot)).toHaveLength(3);
  });

  it("publishes again after a failed publish", async () => {
    const { bot, events } = await setup();
    await bot.slackFault("views.publish", "error", 1, { error: "internal_error" });
    await events.openHome();
    await events.openHome();
    const calls = await publishes(bot);
    expect(calls.map((c) => c.ok)).toEqual([false, true]);
  });

  it("ignores the Messages tab", async () => {
    const { bot, events } = await setup();
    const team = await bot.team();
    await events.send({
      type: "event_callback",
      team_id: team,
      event_id: `EvMSG${Date.now()}`,
      event: {
        type: "app_home_opened",
        user: "U0ALICE",
        channel: "D0ALICE",
        tab: "messages",
        event_ts: "1.2",
      },
    });
    expect(await publishes(bot)).toEqual([]);
  });

  it("Find sessions: the button opens a modal; a bad form is answered in place; a good one sends cards to the DM", async () => {
    const { bot, events } = await setup();
    await events.openHome();
    const click = await events.clickInHome(FIND_SESSIONS_ACTION_ID);
    expect(click.status).toBe(200);
    const opened = (await bot.slackCalls()).filter((c) => c.method === "views.open");
    expect(opened.map((c) => c.ok)).toEqual([true]);
    const { modals } = await events.views();
    expect(modals).toHaveLength(1);
    expect(modals[0]?.callback_id).toBe("find_sessions");

    const empty = await events.submitModal({});
    expect(JSON.parse(empty.body)).toMatchObject({
      response_action: "errors",
      errors: { email: expect.any(String) },
    });
    const twoFilters = await events.submitModal({ email: "jane@acme.com", user: "usr_jane" });
    expect(JSON.parse(twoFilters.body).errors.user).toMatch(/one of/);
    const badSince = await events.submitModal({ email: "jane@acme.com", since: "yesterday-ish" });
    expect(Object.keys(JSON.parse(badSince.body).errors)).toEqual(["since"]);
    const badEmail = await events.submitModal({ email: "jane at acme" });
    expect(JSON.parse(badEmail.body).errors.email).toMatch(/not an email address/);
    // The form speaks in its own fields, never in slash-command syntax.
    for (const answer of [empty, twoFilters, badSince, badEmail])
      expect(answer.body).not.toMatch(/`|user:|url:|since:|\/sessions/);
    expect(await bot.messages("D0ALICE")).toEqual([]);

    const good = await events.submitModal({ email: "jane@acme.com", since: "30d" });
    expect(good.status).toBe(200);
    expect(good.body).toBe("");
    const dm = await bot.messages("D0ALICE");
    expect(dm).toHaveLength(1);
    expect(visibleText(dm[0] ?? {})).toContain("jane@acme.com");
  });
});
