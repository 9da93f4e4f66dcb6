import { describe, expect, it } from "vitest";
import type { EmulatorOrg } from "../../dev/emulator/control-client.ts";
import { type Bot, createBot, emulator, newOrg, visibleText } from "../../dev/in-workerd/bot.ts";
import { ledgerOf, runIdsIn } from "../helpers/cases.ts";
import { subscribedBot } from "../helpers/emulator.ts";

// A run still `running` holds the watermark back for at most an hour; past that the watermark
// moves on, and the run is watched on its own, so a late failure is still announced.

const MINUTE = 60_000;

describe("a run that stays running for more than an hour, then fails", () => {
  it("is announced once, after the watermark moved past it", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    // A later run passes meanwhile; the running one holds the watermark back for now.
    const later = await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + 30 * MINUTE));
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === slow.id)).toMatchObject({
      status: "running",
      fate: null,
    });

    // Over an hour: the read window moves on; the ledger still holds the run as running, watched.
    await bot.cron(new Date(t0 + 61 * MINUTE));
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === later.id)).toMatchObject({
      status: "passed",
      fate: "quiet",
    });
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === slow.id)).toMatchObject({
      status: "running",
      fate: null,
    });

    await org.setRun(slow.id, "failed");
    await bot.cron(new Date(t0 + 70 * MINUTE));
    await bot.cron(new Date(t0 + 71 * MINUTE));
    const posted = await bot.posted();
    expect(posted).toHaveLength(1);
    expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(slow.id);
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === slow.id)).toMatchObject({
      status: "failed",
      fate: "announced",
    });
  });

  it("a long run that passes late is not announced, and stops being watched", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    const t0 = Date.now();
    await bot.cron(new Date(t0 + 61 * MINUTE));
    await org.setRun(slow.id, "passed");
    await bot.cron(new Date(t0 + 70 * MINUTE));
    expect(await bot.posted()).toEqual([]);
  });

  it("a run already running for two hours when the channel subscribes is announced when it fails", async () => {
    const { bot, ctl, testId, slow } = await runningBeforeSubscribing(120, async (ctl, id) => {
      await ctl.addRun(id, "passed", { createdAt: new Date(Date.now() - 60 * MINUTE).toISOString() });
    });
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    expect(await bot.posted()).toEqual([]);
    expect((await ledgerOf(bot, "test", testId)).find((r) => r.id === slow.id)).toMatchObject({
      status: "running",
      fate: null,
    });
    await ctl.setRun(slow.id, { status: "failed" });
    await bot.cron(new Date(t0 + MINUTE));
    await bot.cron(new Date(t0 + 2 * MINUTE));
    await expectAnnouncedOnce(bot, slow.id);
  });

  it("a run running since before the subscription, failing after its hour, is announced once", async () => {
    const { bot, ctl, testId, slow } = await runningBeforeSubscribing(30);
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    await ctl.addRun(testId, "passed");
    await bot.cron(new Date(t0 + 40 * MINUTE));
    await ctl.setRun(slow.id, { status: "failed" });
    await bot.cron(new Date(t0 + 45 * MINUTE));
    await bot.cron(new Date(t0 + 46 * MINUTE));
    await expectAnnouncedOnce(bot, slow.id);
  });
});

/** A new test whose first run started `minutesAgo` and is still running, then a subscription. */
async function runningBeforeSubscribing(
  minutesAgo: number,
  more: (ctl: EmulatorOrg, testId: number) => Promise<void> = async () => {},
) {
  const apiKey = await newOrg();
  const ctl = emulator.org(apiKey);
  const testId = (await emulator.org(apiKey).addTest("Nightly export")).id;
  const slow = await ctl.addRun(testId, "running", {
    createdAt: new Date(Date.now() - minutesAgo * MINUTE).toISOString(),
  });
  await more(ctl, testId);
  const bot = createBot({ apiKey });
  await bot.command("/decipher", `subscribe test ${testId}`);
  return { bot, ctl, testId, slow };
}

async function expectAnnouncedOnce(bot: Bot, runId: number) {
  const posted = await bot.posted();
  expect(posted).toHaveLength(1);
  expect(runIdsIn(visibleText(posted[0] ?? {}))).toContain(runId);
}

describe("a running run behind a full page of newer runs", () => {
  it("is announced the first poll after it fails, though every newer run is unchanged", async () => {
    const { bot, org } = await subscribedBot();
    const slow = await org.addRun(101, "running");
    const t0 = Date.now();
    await bot.cron(new Date(t0));
    // More newer runs than one page holds, all passing, and all read once.
    for (let i = 0; i < 105; i++) await org.addRun(101, "passed");
    await bot.cron(new Date(t0 + MINUTE));
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === slow.id)).toMatchObject({
      status: "running",
    });

    // Nothing newer changes; only the old running run fails.
    await org.setRun(slow.id, "failed");
    await bot.cron(new Date(t0 + 2 * MINUTE));
    const posted = await bot.posted();
    expect(posted.flatMap((m) => runIdsIn(visibleText(m)))).toContain(slow.id);
    expect((await ledgerOf(bot, "test", 101)).find((r) => r.id === slow.id)).toMatchObject({
      status: "failed",
      fate: "announced",
    });
  });
});
