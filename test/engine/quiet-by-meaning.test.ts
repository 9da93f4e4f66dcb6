import { describe, expect, it } from "vitest";
import { emulator, type StoredMessage, visibleText } from "../../dev/in-workerd/bot.ts";
import { startWithinOneUtcDay, statusText } from "../helpers/cases.ts";
import { channelWatching, collectionPath, subscribedBot } from "../helpers/emulator.ts";

const topLevel = (messages: StoredMessage[]) => messages.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
const minutes = (t0: number, n: number) => new Date(t0 + n * 60_000);

/** Puts the org into the noisy scenario: its sessions list gains `/checkout` traffic. */
const checkoutTraffic = (apiKey: string) => emulator.org(apiKey).scenario("noisy");

describe("flaky tests stay quiet", () => {
  it("a flapping test's failures go into one thread a day, not a new alert each", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = startWithinOneUtcDay(30 * 60_000);
    // Passes with a failure now and then: flaky by the thresholds (2+ failures, ≤ 40 %, passes between).
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed", "passed"] as const)
      await org.addRun(101, status);
    await bot.cron(minutes(t0, 0));
    for (let i = 1; i <= 4; i++) {
      await org.addRun(101, "failed");
      await org.addRun(101, "passed");
      await bot.cron(minutes(t0, i));
    }
    const posted = await bot.posted();
    const parents = topLevel(posted);
    expect(parents).toHaveLength(1);
    expect(visibleText(parents[0] as StoredMessage)).toMatch(/flaky/);
    const replies = (await bot.messages()).filter(
      (m) => m.thread_ts === parents[0]?.ts && m.ts !== parents[0]?.ts,
    );
    expect(replies.length).toBeGreaterThanOrEqual(3);
  });

  it("a test that fails half its runs, flipping with passes, gets one flaky thread, not an alert per failure", async () => {
    const { bot, org, tests } = await channelWatching(1, { names: () => "Login with SSO" });
    const test = tests[0] as { id: number };
    const t0 = startWithinOneUtcDay(30 * 60_000);
    // Fails, passes, fails, passes… for 18 minutes: 50 % failed, never 3 in a row.
    for (let i = 0; i < 18; i++) {
      await org.addRun(test.id, i % 2 === 0 ? "failed" : "passed");
      await bot.cron(minutes(t0, i));
    }
    const parents = topLevel(await bot.posted());
    // Its first failure and its first relapse alert; from the second relapse on it is flaky.
    expect(parents).toHaveLength(3);
    expect(visibleText(parents[2] as StoredMessage)).toMatch(/is flaky/);
    const replies = (await bot.messages()).filter(
      (m) => m.thread_ts === parents[2]?.ts && m.ts !== parents[2]?.ts,
    );
    expect(replies).toHaveLength(6);
  });

  it("a test called flaky gets no new top-level alert the same day, though it then fails three times in a row", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = startWithinOneUtcDay(30 * 60_000);
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed", "passed"] as const)
      await org.addRun(101, status);
    await bot.cron(minutes(t0, 0));
    const parents = topLevel(await bot.posted());
    expect(parents).toHaveLength(1);
    const flakyThread = parents[0] as StoredMessage;
    expect(visibleText(flakyThread)).toMatch(/this thread holds its failures until /i);

    // Three minutes later it fails in a row (broken by the thresholds): still the day's thread.
    const later = [];
    for (let i = 0; i < 3; i++) later.push(await org.addRun(101, "failed"));
    await bot.cron(minutes(t0, 3));
    later.push(await org.addRun(101, "failed"));
    await bot.cron(minutes(t0, 6));
    expect(topLevel(await bot.posted())).toHaveLength(1);
    const replies = (await bot.messages())
      .filter((m) => m.thread_ts === flakyThread.ts && m.ts !== flakyThread.ts)
      .map(visibleText)
      .join("\n");
    for (const run of later) expect(replies).toContain(`runs/${run.id}`);
  });

  it("a flaky thread's reply about a run read with later passes calls it by its own moment, not 'new failure after 20 passes'", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = startWithinOneUtcDay(30 * 60_000);
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed", "passed"] as const)
      await org.addRun(101, status);
    await bot.cron(minutes(t0, 0));
    const flakyThread = topLevel(await bot.posted())[0] as StoredMessage;
    // Read in one look (docs/try-it-locally.md's new-failure recipe run while it flaps): two failures, then
    // 20 passes recorded after them, then one more failure.
    const early = [await org.addRun(101, "failed"), await org.addRun(101, "passed")];
    early.push(await org.addRun(101, "failed"));
    for (let i = 0; i < 20; i++) await org.addRun(101, "passed");
    const last = await org.addRun(101, "failed");
    await bot.cron(minutes(t0, 1));
    const replies = (await bot.messages()).filter(
      (m) => m.thread_ts === flakyThread.ts && m.ts !== flakyThread.ts,
    );
    const about = (runId: number) =>
      replies.map(visibleText).find((text) => text.includes(`runs/${runId}`)) ?? "";
    for (const run of [early[0], early[2]]) {
      expect(about(run?.id ?? 0)).toMatch(/flaky/);
      expect(about(run?.id ?? 0)).not.toMatch(/after 20 runs passed/);
    }
    expect(about(last.id)).toMatch(/new failure — failed after 20 runs passed/);
  });

  it("the flaky alert's figure 'at run #N' is run #N's: it counts no failure read after it (review15)", async () => {
    const { bot, org } = await subscribedBot();
    const t0 = startWithinOneUtcDay(30 * 60_000);
    // Read in one look: the alert is about the first failure, and another one follows it.
    const runs = [];
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed", "passed"] as const)
      runs.push(await org.addRun(101, status));
    await bot.cron(minutes(t0, 0));
    const parent = topLevel(await bot.posted()).find((m) => /is flaky/.test(visibleText(m)));
    if (!parent) throw new Error("no flaky alert");
    const text = visibleText(parent);
    const line = /At run #(\d+): .*failed (\d+) of the last (\d+) runs.*last runs (\S+)/u.exec(text);
    if (!line) throw new Error(`no 'At run #N' figure in: ${text}`);
    const [, runId, failed, of, strip] = line as unknown as [string, string, string, string, string];
    // The strip beside it ends with run #N (the failure the alert is about).
    expect(Number(runId)).toBe(runs[1]?.id);
    const marks = [...strip];
    expect(marks.length).toBeGreaterThanOrEqual(Number(of));
    // So the figure, said to be of the same moment, counts the failures the strip shows there.
    const failedThen = marks.slice(-Number(of)).filter((m) => m === "🟥").length;
    expect(`failed ${failed} of the last ${of} runs`).toBe(`failed ${failedThen} of the last ${of} runs`);
  });

  it("/decipher status says a test called flaky today is flaky, not that no failure alert is open", async () => {
    const { bot, org } = await subscribedBot();
    for (const status of ["passed", "failed", "passed", "passed", "passed", "failed"] as const)
      await org.addRun(101, status);
    await bot.cron();
    expect(
      topLevel(await bot.posted())
        .map(visibleText)
        .join("\n"),
    ).toMatch(/is flaky/);
    const status = await statusText(bot);
    expect(status).toMatch(/:large_yellow_circle: flaky: [^·\n]* · called flaky <!date\^\d+\^[^>]*>/);
    expect(status).not.toMatch(/no failure alert open/);
  });

  it("flaky:digest posts nothing for a flaky failure", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 flaky:digest");
    for (const status of ["passed", "failed", "passed", "passed", "passed", "passed"] as const)
      await org.addRun(101, status);
    await bot.cron();
    await org.addRun(101, "failed");
    await bot.cron(new Date(Date.now() + 60_000));
    expect(await bot.posted()).toEqual([]);
  });

  it("flaky:alert alerts on each failure, showing the class and the run strip", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 flaky:alert");
    for (const status of ["passed", "failed", "passed", "passed", "passed", "passed"] as const)
      await org.addRun(101, status);
    await bot.cron();
    await org.addRun(101, "failed");
    await bot.cron(new Date(Date.now() + 60_000));
    const posts = await bot.posted();
    expect(posts.length).toBeGreaterThanOrEqual(1);
    const text = visibleText(posts.at(-1) as StoredMessage);
    expect(text).toMatch(/flaky/);
    expect(text).toMatch(/[🟩🟥]{3,}/u);
  });
});

describe("after:<n> and trigger:<value>", () => {
  it("after:3 alerts on the third failure in a row, saying so, and not before", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 after:3");
    const t0 = startWithinOneUtcDay(30 * 60_000);
    await org.addRun(101, "failed");
    await bot.cron(minutes(t0, 0));
    await org.addRun(101, "failed");
    await bot.cron(minutes(t0, 1));
    expect(await bot.posted()).toEqual([]);
    await org.addRun(101, "failed");
    await bot.cron(minutes(t0, 2));
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/3 runs/);
  });

  it("after:2 forgets a single failure once the test passes", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 after:2");
    const t0 = startWithinOneUtcDay(30 * 60_000);
    for (const [i, status] of (["failed", "passed", "failed", "passed"] as const).entries()) {
      await org.addRun(101, status);
      await bot.cron(minutes(t0, i));
    }
    expect(await bot.posted()).toEqual([]);
  });

  it("trigger:schedule leaves manual runs out", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 trigger:schedule");
    await org.addRun(101, "failed", { triggeredBy: "manual" });
    await bot.cron();
    expect(await bot.posted()).toEqual([]);
    const scheduled = await org.addRun(101, "failed", { triggeredBy: "schedule" });
    await bot.cron(new Date(Date.now() + 60_000));
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toContain(`runs/${scheduled.id}`);
  });
});

describe("the production impact of a failing test", () => {
  it("docs/try-it-locally.md's SIMULATE=off recipe (new-failure on demo test 101) is a new-failure alert with its Production line", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
    await bot.cron();
    expect(await bot.posted()).toHaveLength(0);
    const { passed, failed } = await org.newFailure(101);
    expect(passed).toHaveLength(20);
    await bot.cron(new Date(Date.now() + 60_000));
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    const text = visibleText(posts[0] as StoredMessage);
    expect(text).toContain(`runs/${failed.id}`);
    expect(text).toMatch(/new failure/);
    expect(text).not.toMatch(/flaky/);
    expect(text).toMatch(/Production:.*\d+\+? sessions? on .*\/checkout/s);
  });

  it("page:/checkout shows production sessions on that page, for at most two more vendor requests", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
    await checkoutTraffic(org.apiKey);
    await bot.cron();
    const before = await org.requests();
    await org.addRun(101, "failed");
    await bot.cron(new Date(Date.now() + 60_000));
    const after = await org.requests();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/Production:.*\d+\+? sessions? on .*\/checkout/s);
    const sessionsCalls = (after.byRoute.sessions ?? 0) - (before.byRoute.sessions ?? 0);
    const timelineCalls = (after.byRoute.timeline ?? 0) - (before.byRoute.timeline ?? 0);
    expect(sessionsCalls + timelineCalls).toBeLessThanOrEqual(2);
    expect(sessionsCalls).toBe(1);
  });

  it("an idle poll never looks up production sessions", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
    await bot.cron();
    const before = await org.requests();
    await bot.cron(new Date(Date.now() + 60_000));
    const after = await org.requests();
    expect((after.byRoute.sessions ?? 0) - (before.byRoute.sessions ?? 0)).toBe(0);
    expect(after.total - before.total).toBe(1);
  });

  it("says production impact is unavailable when Decipher fails, and still alerts", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
    await org.addRun(101, "failed");
    await org.fault("sessions", "500", 5);
    await bot.cron();
    const posts = await bot.posted();
    expect(posts).toHaveLength(1);
    expect(visibleText(posts[0] as StoredMessage)).toMatch(/unavailable/);
  });
});

describe("tests and production, both ways", () => {
  it("a collection alert on a watched test's page names that test and its last run", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:1");
    const path = await collectionPath(org.apiKey);
    await bot.command("/decipher", `subscribe test 101 page:${path}`);
    await org.grow(501, 2);
    await bot.cron();
    const alert = (await bot.posted()).find((m) => /grew|collection/i.test(visibleText(m)));
    expect(visibleText(alert as StoredMessage)).toMatch(/Tests on this page: .*runs\/\d+/s);
  });

  it("the digest has a tests-vs-production line per linked test", async () => {
    const { bot, org } = await subscribedBot("subscribe test 101 page:/checkout");
    await checkoutTraffic(org.apiKey);
    await bot.command("/decipher", "digest 09:00 UTC");
    const { DigestStore } = await import("../../src/store/digest-store.ts");
    const { env } = await import("cloudflare:test");
    const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
    await bot.cron(new Date(Date.parse(due) + 5_000));
    const digest = (await bot.posted()).find((m) => /digest/i.test(visibleText(m)));
    expect(visibleText(digest as StoredMessage)).toMatch(/Tests vs production[\s\S]*Production:.*\/checkout/);
  });

  it("the digest's tests-vs-production line gives a collection on the page the count its own collection line gives, not the one of its last alert", async () => {
    const { bot, org } = await subscribedBot("subscribe collection 501 growth:2");
    const path = await collectionPath(org.apiKey);
    await bot.command("/decipher", `subscribe test 101 page:${path}`);
    await org.grow(501, 2);
    await bot.cron();
    // It grows again after its alert, by less than its growth:2 tells.
    const total = (await org.grow(501, 1)).collection.sessionCount;
    await bot.command("/decipher", "digest 09:00 UTC");
    const { DigestStore } = await import("../../src/store/digest-store.ts");
    const { env } = await import("cloudflare:test");
    const due = ((await new DigestStore(env.STATE).get("C0ALERTS")) as { nextDueAt: string }).nextDueAt;
    await bot.cron(new Date(Date.parse(due) + 5_000));
    const digest = visibleText(
      (await bot.posted()).find((m) => /Tests vs production/.test(visibleText(m))) as StoredMessage,
    );
    const production = /Tests vs production[\s\S]*/.exec(digest)?.[0] ?? "";
    expect(digest).toContain(`${total} sessions`);
    expect(production).toMatch(new RegExp(`; ${total} in '`));
  });
});
