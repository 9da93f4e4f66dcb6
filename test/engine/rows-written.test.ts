import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { keepWeek } from "../../bench/day/kept-week.ts";
import { createBot, emulator, newOrg } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import {
  health,
  ledgerOf,
  registryDirectoryStub,
  registryShard,
  subscriptionStub,
  until,
} from "../helpers/cases.ts";
import {
  clearFiredAlarm,
  countRowsWritten,
  fireAlarm,
  noRows,
  type RowsWritten,
  settled,
} from "../helpers/rows-written.ts";

// Cloudflare's Free plan allows 100,000 rows written a day, index rows and each setAlarm
// included (docs/cloudflare-limits.md): 1,000 subscriptions whose tests run 24 times a day
// leave each run a few rows (issue #35; BENCHMARKS.md "Rows written, by what writes them").
// These count what the channel's objects write, polled at the hourly pace a large deployment
// runs at; the registry shard's lease renewals are counted apart.

const MINUTE = 60_000;

/** `#alerts` watching `tests` tests on the objects' own alarms, and the objects whose rows count. */
async function watched(tests: number, plan?: string) {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey, env: { POLL_CLOCK: "alarms", ...(plan ? { PLAN: plan } : {}) } });
  const org = emulator.org(apiKey);
  const ids: number[] = [];
  for (let i = 0; i < tests; i++) {
    const test = await org.addTest(`Rows step ${i + 1} ${crypto.randomUUID().slice(0, 6)}`);
    await bot.command("/decipher", `subscribe test ${test.id}`);
    ids.push(test.id);
  }
  const team = await bot.team();
  const channel = env.CHANNELS.get(env.CHANNELS.idFromName(objectNames.channel(team, "C0ALERTS")));
  const subscriptions = await Promise.all(ids.map((id) => subscriptionStub(bot, "test", id)));
  const shard = await registryShard(bot);
  const config = readConfig(bot.env);
  const t0 = Date.now();
  const id = ids[0] as number;
  const stub = subscriptions[0] as (typeof subscriptions)[number];
  /** The first test's poll `minutes` after the start, as its team's clock runs it. */
  const pollAt = async (minutes: number) => {
    await clearFiredAlarm(stub);
    return stub.wake(new Date(t0 + minutes * MINUTE).toISOString(), config, { byClock: true });
  };
  /** A run of the first test that ended a few minutes before `minutes`. */
  const runBefore = (minutes: number, status: "passed" | "failed") =>
    org.addRun(id, status, { createdAt: new Date(t0 + (minutes - 4) * MINUTE).toISOString() });
  /** Rows the channel's objects (`channel`) and the team's shard (`leases`) write while `work` runs. */
  const rowsOf = async (work: () => Promise<unknown>) => {
    const channelRows = noRows();
    const leases = noRows();
    for (const s of [...subscriptions, channel]) await countRowsWritten(s, channelRows);
    await countRowsWritten(shard, leases);
    await work();
    return { channel: settled(channelRows), leases: settled(leases) };
  };
  await pollAt(0);
  return { subscriptions, config, t0, bot, org, id, pollAt, runBefore, rowsOf, channel, shard, stub };
}

const where = (rows: RowsWritten) => JSON.stringify(rows.by);

describe("rows written per run (issue #35)", () => {
  it("a passing run an hour after the last costs its ledger row, and no alarm of its own; the state and the channel's index stay unwritten", async () => {
    const { bot, id, pollAt, runBefore, rowsOf } = await watched(2);
    // The first pass changes what the test's state says (a run was seen): written once.
    await runBefore(60, "passed");
    await pollAt(60);
    for (const hour of [2, 3, 4, 5]) {
      await runBefore(hour * 60, "passed");
      const { channel } = await rowsOf(() => pollAt(hour * 60));
      expect(channel.total, where(channel)).toBeLessThanOrEqual(2);
      expect(channel.by["put sub"] ?? 0, where(channel)).toBe(0);
      // Its team's clock polls it: one alarm for the team's tests, not one per test.
      expect(channel.by.setAlarm ?? 0, where(channel)).toBe(0);
      // An idle poll half an hour later writes nothing.
      const idle = await rowsOf(() => pollAt(hour * 60 + 30));
      expect(idle.channel.by, where(idle.channel)).toEqual({});
    }
    // The ledger has every pass, settled: the digest, the classes and the next read see them.
    const passes = (await ledgerOf(bot, "test", id)).filter((r) => r.status === "passed");
    expect(passes).toHaveLength(5);
    expect(passes.every((r) => r.fate === "quiet")).toBe(true);
  });

  it("in the steady state, a week of runs kept and pruned as it ages, a quiet pass costs at most one row besides its alarm", async () => {
    const { bot, id, subscriptions, t0, pollAt, runBefore, rowsOf } = await watched(2);
    // The ledger as the days it keeps left it: each poll's prune has a row to drop.
    await keepWeek(subscriptions[0] as DurableObjectStub, 0, t0 + MINUTE);
    await runBefore(60, "passed");
    await pollAt(60);
    for (const hour of [2, 3, 4]) {
      await runBefore(hour * 60, "passed");
      const { channel } = await rowsOf(() => pollAt(hour * 60));
      // Deletes are billed as rows written too: the pass's own row and whatever making room for it costs.
      expect(channel.total - (channel.by.setAlarm ?? 0), where(channel)).toBeLessThanOrEqual(1);
    }
    // Every pass is still read: the week kept (less the hours aged out) and the four new ones.
    const passes = (await ledgerOf(bot, "test", id)).filter((r) => r.status === "passed");
    expect(passes.filter((r) => r.id < 1_500_000_000)).toHaveLength(4);
    expect(passes.length).toBeGreaterThanOrEqual(4 + 8 * 24 - 4);
  });

  it("in the steady state, a run seen running and its pass cost at most 5 rows besides alarms, none of them deleted later", async () => {
    const { org, id, subscriptions, t0, pollAt, runBefore, rowsOf } = await watched(2);
    await keepWeek(subscriptions[0] as DurableObjectStub, 0, t0 + MINUTE);
    await runBefore(60, "passed");
    await pollAt(60);
    for (const hour of [2, 3]) {
      const run = await org.addRun(id, "running", {
        createdAt: new Date(t0 + (hour * 60 - 2) * MINUTE).toISOString(),
      });
      const seen = await rowsOf(() => pollAt(hour * 60));
      await org.setRun(run.id, "passed");
      const passed = await rowsOf(() => pollAt(hour * 60 + 5));
      // The running row and its time- and unsettled-index rows (3), then its pass.
      const rows = [seen.channel, passed.channel];
      const total = rows.reduce((n, r) => n + r.total - (r.by.setAlarm ?? 0), 0);
      expect(total, rows.map(where).join(" ")).toBeLessThanOrEqual(5);
    }
    // Eight days on, a quiet pass writes its own row and deletes none: those runs left no row
    // to prune (a deleted row is billed as written).
    const later = 8 * 24 * 60 + 4 * 60;
    await runBefore(later, "passed");
    const { channel } = await rowsOf(() => pollAt(later));
    expect(channel.total - (channel.by.setAlarm ?? 0), where(channel)).toBeLessThanOrEqual(1);
  });

  it("a failure, its alert and the pass that ends it cost a bounded number of rows", async () => {
    // Minutes apart, not hours: the channel's window closes on the real clock.
    const { bot, pollAt, runBefore, rowsOf, channel } = await watched(2);
    await runBefore(1, "passed");
    await pollAt(1);
    await runBefore(2, "failed");
    // The failure opens the channel's outage window and asks the other test to poll now: it
    // does, beside its clock, and its answer closes the window, which tells the failure alone.
    const failure = await rowsOf(async () => {
      await pollAt(2);
      // The window's alarm, now due, fires on its own; run here if it has not yet.
      await fireAlarm(channel);
      await until(async () => (await bot.alertPosts()).length > 0, 10_000, "the alert");
    });
    expect(await bot.alertPosts()).toHaveLength(1);
    const recovery = await rowsOf(async () => {
      await runBefore(3, "passed");
      await pollAt(3);
    });
    // 20 and 12 (35 before issue #35's cuts): the failure's row and its fate, the outbox's row
    // and its sent state, the window and the decision, the state and the channel's index row
    // as the streak opens; the pass's row and its fate, and the same for the recovery reply.
    expect(
      failure.channel.total + recovery.channel.total,
      `${where(failure.channel)} ${where(recovery.channel)}`,
    ).toBeLessThanOrEqual(32);
  });

  it("on a clock the governor slowed, each test the outage window asks polls beside its alarm, writing nothing for being asked", async () => {
    // 6 tests on 10,000 requests a day: polled every 2 minutes (test/engine/governor.test.ts).
    const { bot, subscriptions, config, runBefore, rowsOf } = await watched(6, "requests=10000");
    // Each object learns its pace from its first report.
    for (const stub of subscriptions.slice(1))
      await stub.wake(new Date().toISOString(), config, { renew: true });
    const others = subscriptions.slice(1);
    const alarms = () =>
      Promise.all(others.map((s) => runInDurableObject(s, (_i, st) => st.storage.getAlarm())));
    const before = await alarms();
    await runBefore(1, "failed");
    const first = subscriptions[0] as (typeof subscriptions)[number];
    const asked = await rowsOf(async () => {
      await first.wake(new Date().toISOString(), config, { renew: true });
      // Every asked test answers at once: the window closes early and tells the failure.
      await until(async () => (await bot.alertPosts()).length > 0, 10_000, "the alert");
    });
    expect(await alarms()).toEqual(before);
    // The failing test's and the window's rows only: none for the five tests asked.
    expect(asked.channel.by.setAlarm ?? 0, where(asked.channel)).toBeLessThanOrEqual(3);
    expect(asked.channel.by["put window"] ?? 0, where(asked.channel)).toBeLessThanOrEqual(2);
  });
});

describe("rows the registry writes (issue #35)", () => {
  it("a lease renewal writes the lease's row alone", async () => {
    const { config, t0, rowsOf, stub } = await watched(2);
    await stub.wake(new Date(t0 + MINUTE).toISOString(), config, { renew: true });
    // A minute later: the same figures, the directory's time still right, nothing to tell it.
    const { leases } = await rowsOf(() =>
      stub.wake(new Date(t0 + 2 * MINUTE).toISOString(), config, { renew: true }),
    );
    // 2 before: the row and its row in an index by lease time that only the watchdog read.
    expect(leases.total, where(leases)).toBe(1);
  });

  it("a shard that tells the directory keeps what it told in one row", async () => {
    const { bot, id, rowsOf, shard } = await watched(2);
    const name = objectNames.subscription({
      teamId: await bot.team(),
      channelId: "C0ALERTS",
      kind: "test",
      id,
    });
    const at = new Date().toISOString();
    // A poll that could not read Decipher changes the team's figures: the directory must hear it.
    const { leases } = await rowsOf(() =>
      shard.report({ name, status: "erroring", at, erroringSince: at, overdue: 0 }, Date.now() + 15 * MINUTE),
    );
    expect(leases.by["put everywhere"] ?? 0, where(leases)).toBe(0);
    expect(leases.total, where(leases)).toBe(2);
  });

  it("the directory keeps a newer successful poll in memory while a stored one is under 5 minutes older", async () => {
    const directory = registryDirectoryStub();
    // A day ahead: newer than any success the file's other deployments reported.
    const t = Date.now() + 24 * 60 * MINUTE;
    const team = (tag: string) => `T${tag}${crypto.randomUUID().slice(0, 6)}`;
    const [a, b] = [team("A"), team("B")];
    const summary = (teamId: string, minutes: number) => ({
      teamId,
      checkAt: t + 60 * MINUTE,
      subscriptions: 1,
      erroring: 0,
      paused: 0,
      overdue: 0,
      lastSuccessAt: new Date(t + minutes * MINUTE).toISOString(),
      workspace: null,
      seq: t + minutes * MINUTE,
    });
    await directory.noteShard(summary(a, 0));
    await directory.noteShard(summary(b, 0));
    const rows = noRows();
    await countRowsWritten(directory, rows);
    await directory.noteShard(summary(a, 3));
    expect(settled(rows).total, where(rows)).toBe(0);
    expect((await directory.totals()).lastSuccessAt).toBe(new Date(t + 3 * MINUTE).toISOString());
    // 6 minutes newer than the newest stored: stored, so an evicted directory is at most 5 minutes behind.
    await directory.noteShard(summary(b, 6));
    expect(settled(rows).total, where(rows)).toBeGreaterThan(0);
    expect((await directory.totals()).lastSuccessAt).toBe(new Date(t + 6 * MINUTE).toISOString());
  });

  it("the cron stores its times every other minute, and /health says the last one", async () => {
    const { bot } = await watched(1);
    const rows = noRows();
    await countRowsWritten(registryDirectoryStub(), rows);
    const t0 = Date.now() - 10 * MINUTE;
    for (const m of [0, 1, 2, 3]) await bot.cron(new Date(t0 + m * MINUTE));
    expect(settled(rows).by["put cycle"] ?? 0, where(rows)).toBeLessThanOrEqual(2);
    expect((await health(bot)).lastPollAt).toBe(new Date(t0 + 3 * MINUTE).toISOString());
  });
});
