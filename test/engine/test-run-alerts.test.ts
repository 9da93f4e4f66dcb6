import { describe, expect, it } from "vitest";
import { createBot, emulator, newOrg, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { objectState } from "../helpers/cases.ts";
import { channelWatching, subscribedBot } from "../helpers/emulator.ts";

const CHANNEL = "C0ALERTS";

const posted = (bot: ReturnType<typeof createBot>) => bot.posted(CHANNEL);

describe("failed-run alerts", () => {
  it("announces nothing that happened before the subscription", async () => {
    const { bot } = await subscribedBot("subscribe test 102");
    await bot.cron();
    await bot.cron();
    expect(await posted(bot)).toEqual([]);
  });

  it("announces a new failed run exactly once, with its summary and links", async () => {
    const { bot, org } = await subscribedBot();
    const run = await org.addRun(101, "failed", {
      oneLineSummary: "Checkout button never enabled",
      failedSteps: 2,
      totalSteps: 9,
      firstFailedStepNumber: 4,
    });
    await bot.cron();
    await bot.cron();
    const messages = await posted(bot);
    expect(messages).toHaveLength(1);
    const text = visibleText(messages[0] as StoredMessage);
    expect(text).toContain("Checkout button never enabled");
    expect(text).toContain(`/tests/101/runs/${run.id}`);
    expect(text).toMatch(/step 4 of 9/);
  });

  it("does not announce passed runs", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "passed");
    await bot.cron();
    expect(await posted(bot)).toEqual([]);
  });

  it("announces a run first seen running once it fails", async () => {
    const { bot, org } = await subscribedBot();
    const run = await org.addRun(101, "running");
    await bot.cron();
    expect(await posted(bot)).toEqual([]);
    await org.setRun(run.id, "failed");
    await bot.cron();
    await bot.cron();
    const messages = await posted(bot);
    expect(messages).toHaveLength(1);
    expect(visibleText(messages[0] as StoredMessage)).toContain(`runs/${run.id}`);
  });

  it("one poll that sees a failure and its recovery posts one true message, not an alert then an edit", async () => {
    // A fresh test: no history that would make the blip flaky (that goes to the flaky thread).
    const { bot, org, tests } = await channelWatching(1);
    const id = (tests[0] as { id: number }).id;
    const failed = await org.addRun(id, "failed");
    const passed = await org.addRun(id, "passed");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await bot.cron(new Date(t0 + 60_000));
    const messages = await posted(bot);
    expect(messages).toHaveLength(1);
    const message = messages[0] as StoredMessage;
    expect(message.text).toMatch(/failed, then passed on the next run/);
    const text = visibleText(message);
    expect(text).toMatch(/Recovered/);
    expect(text).toContain(`runs/${failed.id}`);
    expect(text).toContain(`runs/${passed.id}`);
    expect(text).not.toMatch(/:x: Test failed/);
    // Posted already true: never edited to "passed again", and no reply saying so.
    expect(message.edited ?? false).toBe(false);
    expect((await bot.slackCalls()).filter((c) => c.method === "chat.update")).toEqual([]);
    expect(
      (await bot.messages(CHANNEL)).filter((m) => m.thread_ts === message.ts && m.ts !== message.ts),
    ).toEqual([]);
  });

  it("threads consecutive failures under the first alert, updates it, and recovers once", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    await org.addRun(101, "failed");
    await bot.cron();
    await org.addRun(101, "failed");
    await bot.cron();
    await org.addRun(101, "passed");
    await bot.cron();
    await org.addRun(101, "passed");
    await bot.cron();

    const messages = await posted(bot);
    const parents = messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(parents).toHaveLength(1);
    const parent = parents[0] as StoredMessage;
    const replies = messages.filter((m) => m.thread_ts === parent.ts && m.ts !== parent.ts);
    expect(replies).toHaveLength(3);
    expect(visibleText(replies[2] as StoredMessage)).toMatch(/passed again after 3 failed runs/i);
    expect(parent.edited).toBe(true);
    expect(visibleText(parent)).toMatch(/passed again after 3 failed runs/i);
    expect(visibleText(parent)).not.toMatch(/is failing for/i);
  });

  it("an alert whose class counts failures from before it: its reply and its recovery count from the same first failure", async () => {
    // The demo's test 102 failed 5 runs in a row before the subscription.
    const { bot, org } = await subscribedBot("subscribe test 102");
    await org.addRun(102, "failed");
    await bot.cron();
    const [parent] = await posted(bot);
    expect(visibleText(parent as StoredMessage)).toMatch(/failed 6 runs in a row/);
    await org.addRun(102, "failed");
    await org.addRun(102, "passed");
    await bot.cron();
    const reply = (await posted(bot)).find((m) => m.thread_ts === parent?.ts && m.ts !== parent?.ts);
    expect((reply as StoredMessage).text).toMatch(/passed again after 7 failed runs/);
    const card = (await posted(bot)).find((m) => m.ts === parent?.ts) as StoredMessage;
    expect(visibleText(card)).toMatch(/passed again after 7 failed runs/);
  });

  it("starts a new thread for a failure after a recovery", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    await org.addRun(101, "passed");
    await bot.cron();
    await org.addRun(101, "failed");
    await bot.cron();
    const parents = (await posted(bot)).filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    expect(parents).toHaveLength(2);
  });

  it("several runs read in one cycle: the alert, then one reply with the next failure and the recovery", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    const again = await org.addRun(101, "failed");
    const pass = await org.addRun(101, "passed");
    await bot.cron();
    const messages = await posted(bot);
    expect(messages).toHaveLength(2);
    const reply = visibleText(messages.at(-1) as StoredMessage);
    expect(reply).toContain(`runs/${again.id}`);
    expect(reply).toContain(`runs/${pass.id}`);
    expect(reply).toMatch(/passed again after 2 failed runs/i);
    expect(visibleText(messages[0] as StoredMessage)).toMatch(/Recovered/);
  });

  it("an open alert's failures read in one look are one reply, listed in order", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    const burst = [
      await org.addRun(101, "failed"),
      await org.addRun(101, "failed"),
      await org.addRun(101, "failed"),
    ];
    await bot.cron();
    const messages = await posted(bot);
    expect(messages).toHaveLength(2);
    const reply = visibleText(messages[1] as StoredMessage);
    const at = burst.map((run) => reply.indexOf(`runs/${run.id}`));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(visibleText(messages[0] as StoredMessage)).toMatch(/failing for 4 runs/);
  });

  it("keeps each channel's alerts apart: one failure, one alert per subscribed channel", async () => {
    const apiKey = await newOrg();
    const bot = createBot({ apiKey });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0ALERTS" });
    await bot.command("/decipher", "subscribe test 101", { channelId: "C0GENERAL" });
    await emulator.org(apiKey).addRun(101, "failed");
    await bot.cron();
    await bot.cron();
    expect(await bot.posted("C0ALERTS")).toHaveLength(1);
    expect(await bot.posted("C0GENERAL")).toHaveLength(1);
  });

  it("survives a restart: state is in its object's storage, not in memory", async () => {
    const { bot, org } = await subscribedBot();
    await org.addRun(101, "failed");
    await bot.cron();
    // A second Worker instance with the same KV and workspace: nothing is re-announced.
    const restarted = createBot({ apiKey: org.apiKey, botToken: bot.botToken });
    await restarted.cron();
    expect(await posted(bot)).toHaveLength(1);
    const saved = await objectState(bot, "test", 101, CHANNEL);
    expect(saved?.kind === "test" && saved.streak?.failedRuns).toBe(1);
  });
});
