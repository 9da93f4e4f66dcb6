import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { guardingTests } from "../../src/engine/guarding-tests.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";
import { pollOnce, subscriptionStub } from "../helpers/cases.ts";
import { collectionPath, subscribedBot } from "../helpers/emulator.ts";

// Data in one message comes from one moment: what a collection alert says of the tests
// guarding its page is read from each test's own object (its ledger), not from the readable
// copy, which an idle poll never rewrites.

const MINUTE = 60_000;

const guardLine = (m: StoredMessage) =>
  visibleText(m)
    .split("\n")
    .find((l) => l.includes("Tests on this page")) ?? "";

/** Collection 501 and test 101, which guards the collection's page, subscribed and polled once at `t0`. */
async function collectionOnTestedPage() {
  const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
  const path = await collectionPath(org.apiKey);
  await bot.command("/decipher", `subscribe test 101 page:${path}`);
  const t0 = Date.now();
  await bot.cron(new Date(t0));
  return { bot, org, t0 };
}

describe("a collection alert names a guarding test's last run as the test's own object holds it", () => {
  it("names a failure the test's object holds for the outage check as failed, though its copy knows no failure yet", async () => {
    const { bot, org, t0 } = await collectionOnTestedPage();
    // The cycle's first pass: the test's object sees the failure and holds it for the outage check…
    const failed = await org.addRun(101, "failed");
    const at = new Date(t0 + MINUTE);
    const stub = await subscriptionStub(bot, "test", 101);
    await stub.poll("test", at.toISOString(), readConfig(bot.env), { hold: true });
    const copies = await new SubscriptionStore(env.STATE).listForChannel("C0ALERTS");
    const copy = copies.find((s) => s.kind === "test") as TestSubscription;
    // The copy knows of no failure streak: read from it, the alert said "last run … passed".
    expect(copy.streak).toBeNull();
    // …and in the same pass the collection grows and alerts.
    await org.grow(501, 3);
    await pollOnce(bot, "collection", 501, at);
    const alert = (await bot.posted()).find((m) => /Tests on this page/.test(visibleText(m)));
    expect(guardLine(alert as StoredMessage)).toMatch(new RegExp(`runs/${failed.id}\\b.*failed`));
  });

  it("names the newest settled run of the test after its failure was told", async () => {
    const { bot, org, t0 } = await collectionOnTestedPage();
    await org.addRun(101, "failed");
    const passed = await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    await org.grow(501, 3);
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const alert = (await bot.posted()).find((m) => /Tests on this page/.test(visibleText(m)));
    expect(guardLine(alert as StoredMessage)).toMatch(new RegExp(`runs/${passed.id}\\b.*passed`));
  });

  it("names a test whose object does not answer without a run, never with an old one", async () => {
    const sub = {
      kind: "test",
      testId: 101,
      testName: "Checkout flow",
      lastRunId: 10074,
      streak: null,
      options: { page: "/checkout" },
    } as unknown as TestSubscription;
    const guards = await guardingTests("/checkout", [sub], async () => {
      throw new Error("object unreachable");
    });
    expect(guards).toEqual([{ testId: 101, testName: "Checkout flow", lastRunId: null, failing: false }]);
    const read = await guardingTests("/checkout", [sub], async () => ({ runId: 10076, failed: true }));
    expect(read).toEqual([{ testId: 101, testName: "Checkout flow", lastRunId: 10076, failing: true }]);
  });
});

describe("a collection alert edited on later growth", () => {
  it("dates the test's run it names, so the kept line stays true beside newer counts and newer runs", async () => {
    const { bot, org, t0 } = await collectionOnTestedPage();
    const named = await org.addRun(101, "failed");
    await bot.cron(new Date(t0 + MINUTE));
    // The test runs again before the collection alerts; its object has not looked yet.
    await org.addRun(101, "passed");
    await org.grow(501, 3);
    await pollOnce(bot, "collection", 501, new Date(t0 + 2 * MINUTE));
    await org.grow(501, 3);
    await bot.cron(new Date(t0 + 10 * MINUTE));
    const alert = (await bot.posted()).find((m) => /Tests on this page/.test(visibleText(m)));
    const blocks = JSON.stringify(alert?.blocks);
    const seconds = Math.floor(Date.parse(named.createdAt) / 1000);
    // Not "last run #X as of <the alert>": by then a newer run had finished.
    expect(blocks).not.toContain("as of");
    expect(blocks).toMatch(new RegExp(`runs/${named.id}\\|#${named.id}> failed <!date\\^${seconds}\\^`));
  });
});
