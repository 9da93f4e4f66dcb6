import { describe, expect, it } from "vitest";
import { type Bot, standIn, visibleText } from "../../dev/in-workerd/bot.ts";
import { SETTLE_BOUND_MS } from "../../src/engine/settle-outcome.ts";
import { health, ledgerOf, runIdsIn, unfatedFailures } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";
import { eventsOf } from "../helpers/events.ts";

// Issue #34, cases 1 and 2: a post whose answer was lost, in a Slack that reads history the way
// its 2025 limits let a distributed app (docs/slack-platform.md). Every such post must end with
// a fate, within SETTLE_BOUND_MS, and as one message in the channel.

const MINUTE = 60_000;
/** A distributed app, looking a lost answer up after Slack's event had its 30 s to come (the default). */
const DISTRIBUTED = { SLACK_DISTRIBUTION: "distributed", SLACK_LOOKUP_AFTER_MS: "30000" };

type Call = { method: string; status?: number; error?: string; params: Record<string, unknown> };

/** One cron at `t0 + minute`, with Slack's rate windows on the same clock. */
async function minute(bot: Bot, t0: number, m: number): Promise<void> {
  await bot.slackClock(new Date(t0 + m * MINUTE));
  await bot.cron(new Date(t0 + m * MINUTE));
}

async function historyCalls(bot: Bot): Promise<Call[]> {
  return ((await bot.slackCalls()) as unknown as Call[]).filter(
    (c) => c.method === "conversations.history" || c.method === "conversations.replies",
  );
}

/** Messages of the channel that name the run (one alert each). */
async function copiesNaming(bot: Bot, runId: number): Promise<number> {
  return (await bot.posted()).filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;
}

/**
 * A distributed app's channel watching one test whose first failure's alert Slack stores while
 * the answer is lost; `events`: Slack sends message_metadata_posted (held until delivered).
 */
async function lostAlert(options: { events: boolean; historyRefused?: boolean }) {
  const { bot, org, tests } = await channelWatching(1, { env: DISTRIBUTED });
  const test = tests[0] as { id: number };
  await bot.distribution("distributed");
  if (options.events) await bot.metadataEvents(true);
  const t0 = Date.now();
  const failed = await org.addRun(test.id, "failed");
  await bot.slackFault("chat.postMessage", "lost", 1);
  if (options.historyRefused)
    await bot.slackFault("conversations.history", "429", 10_000, { retryAfter: 60 });
  await minute(bot, t0, 0);
  const ledgerRow = async () => (await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed.id);
  return { bot, org, test, t0, failed, ledgerRow };
}

describe("a lost answer in a distributed app's Slack (1 history read a minute, 15 a page)", () => {
  it("is found on the second page a minute later, the cursor carried over: no read refused, a fate, then the next failure told once", async () => {
    const { bot, org, tests } = await channelWatching(1, { env: DISTRIBUTED });
    const test = tests[0] as { id: number };
    await bot.distribution("distributed");
    const t0 = Date.now();
    const failed = await org.addRun(test.id, "failed");
    await bot.slackFault("chat.postMessage", "lost", 1);
    await minute(bot, t0, 0);
    // 16 messages after the lost post: it is on the second page of 15.
    const people = eventsOf(bot);
    for (let i = 0; i < 16; i++) await people.post("C0ALERTS", `deploy note ${i}`);
    for (let m = 1; m <= 5; m++) await minute(bot, t0, m);

    const reads = await historyCalls(bot);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.filter((c) => c.status === 429 || c.error === "ratelimited")).toEqual([]);
    expect(reads.every((c) => Number(c.params.limit) <= 15)).toBe(true);
    expect(reads.filter((c) => c.params.cursor).length).toBeGreaterThanOrEqual(1);
    expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === failed.id)?.fate).toBe("announced");
    expect(await copiesNaming(bot, failed.id)).toBe(1);

    await org.addRun(test.id, "passed");
    await minute(bot, t0, 6);
    const next = await org.addRun(test.id, "failed");
    await minute(bot, t0, 7);
    await minute(bot, t0, 8);
    expect(await copiesNaming(bot, next.id)).toBe(1);
    expect((await health(bot)).overdue).toBe(0);
  });

  it("is settled by Slack's message_metadata_posted with no history read at all", async () => {
    const { bot, t0, failed, ledgerRow } = await lostAlert({ events: true });
    expect(await bot.deliverMetadataEvents()).toBeGreaterThanOrEqual(1);
    for (let m = 1; m <= 3; m++) await minute(bot, t0, m);

    expect(await historyCalls(bot)).toEqual([]);
    const row = await ledgerRow();
    const alert = (await bot.posted()).find((m) => runIdsIn(visibleText(m)).includes(failed.id));
    expect(row?.fate).toBe("announced");
    expect(row?.ts).toBe(alert?.ts);
    expect(await copiesNaming(bot, failed.id)).toBe(1);
  });

  it("takes no other app's post for its own: metadata of our type posted by another app settles nothing", async () => {
    const { bot, t0, failed, ledgerRow } = await lostAlert({ events: true });
    const [ours] = await standIn.takeMetadataEvents(bot.botToken);
    const event = ours?.event as Record<string, unknown>;
    // Any app may post metadata of our event type, naming our key, and Slack tells every app
    // subscribed to the type.
    const forged = { ...ours, event: { ...event, app_id: "A0OTHERAPP", message_ts: "1700000000.000100" } };
    await eventsOf(bot).send(forged);
    for (let m = 1; m <= 3; m++) await minute(bot, t0, m);
    const alert = (await bot.posted()).find((m) => runIdsIn(visibleText(m)).includes(failed.id));
    expect((await ledgerRow())?.ts).toBe(alert?.ts);
    expect(alert?.ts).not.toBe("1700000000.000100");
  });

  it("ends at the bound when history never answers: posted again, and the earlier copy deleted once Slack's late event names it", async () => {
    const { bot, test, t0, failed, ledgerRow } = await lostAlert({ events: true, historyRefused: true });
    // Slack's event for the stored post is late: held back until after the bound.
    const late = await standIn.takeMetadataEvents(bot.botToken);
    expect(late.length).toBe(1);
    const boundMinutes = SETTLE_BOUND_MS / MINUTE;
    for (let m = 1; m <= boundMinutes + 2; m++) await minute(bot, t0, m);
    // The second copy's own event settles nothing new.
    await bot.deliverMetadataEvents();

    // Decided at the bound: told again, so the channel is never silent about it.
    expect(await copiesNaming(bot, failed.id)).toBe(2);
    expect(await unfatedFailures(bot, "test", test.id)).toEqual([]);
    expect((await health(bot)).overdue).toBe(0);

    const people = eventsOf(bot);
    for (const envelope of late) await people.send(envelope);
    expect(await copiesNaming(bot, failed.id)).toBe(1);
    const row = await ledgerRow();
    const left = (await bot.posted()).find((m) => runIdsIn(visibleText(m)).includes(failed.id));
    expect(row?.ts).toBe(left?.ts);
    const deletes = ((await bot.slackCalls()) as unknown as Call[]).filter((c) => c.method === "chat.delete");
    const earlier = late[0]?.event as { message_ts: string } | undefined;
    expect(deletes.map((c) => c.params.ts)).toEqual([earlier?.message_ts]);
  });
});

describe("a lost outage message in a distributed app's Slack", () => {
  it("is decided at the bound, and a second outage after the first is over is told", async () => {
    const { bot, org, tests } = await channelWatching(3, { env: DISTRIBUTED });
    await bot.distribution("distributed");
    const t0 = Date.now();
    const first = [];
    for (const t of tests) first.push(await org.addRun(t.id, "failed"));
    await bot.slackFault("chat.postMessage", "lost", 1);
    await bot.slackFault("conversations.history", "429", 10_000, { retryAfter: 60 });
    let m = 0;
    for (; m <= SETTLE_BOUND_MS / MINUTE + 3; m++) await minute(bot, t0, m);
    for (const t of tests) expect(await unfatedFailures(bot, "test", t.id)).toEqual([]);
    for (const run of first) expect(await copiesNaming(bot, run.id)).toBeGreaterThanOrEqual(1);

    for (const t of tests) await org.addRun(t.id, "passed");
    for (const end = m + 75; m <= end; m++) await minute(bot, t0, m);
    const second = [];
    for (const t of tests) second.push(await org.addRun(t.id, "failed"));
    for (const end = m + 3; m <= end; m++) await minute(bot, t0, m);
    for (const run of second) expect(await copiesNaming(bot, run.id)).toBe(1);
    expect((await health(bot)).overdue).toBe(0);
  });
});

describe("lost answers of several subscriptions in one distributed workspace", () => {
  it("share the workspace's one history read a minute: none refused, each settled, each run told once", async () => {
    const { bot, org, tests } = await channelWatching(5, { env: DISTRIBUTED });
    await bot.distribution("distributed");
    const t0 = Date.now();
    // Two tests of five: not an outage, so each subscription's object posts its own alert.
    const failed = [];
    for (const t of tests.slice(0, 2)) failed.push(await org.addRun(t.id, "failed"));
    await bot.slackFault("chat.postMessage", "lost", 2);
    for (let m = 0; m <= 6; m++) await minute(bot, t0, m);

    const reads = await historyCalls(bot);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.filter((c) => c.status === 429 || c.error === "ratelimited")).toEqual([]);
    for (const [i, run] of failed.entries()) {
      const test = tests[i] as { id: number };
      expect((await ledgerOf(bot, "test", test.id)).find((r) => r.id === run.id)?.fate).toBe("announced");
      expect(await copiesNaming(bot, run.id)).toBe(1);
    }
    expect((await health(bot)).overdue).toBe(0);
  });
});

/**
 * Six tests of a distributed app's channel: three fail at once and their outage message's answer
 * is lost, with history refused `historyRefusals` times; `minutesBetween` minutes later the
 * other three fail. `next`: the first minute not run yet.
 */
async function twoOutages(options: { historyRefusals: number; minutesBetween: number }) {
  const { bot, org, tests } = await channelWatching(6, { env: DISTRIBUTED });
  await bot.distribution("distributed");
  const t0 = Date.now();
  const first = [];
  for (const t of tests.slice(0, 3)) first.push(await org.addRun(t.id, "failed"));
  await bot.slackFault("chat.postMessage", "lost", 1);
  await bot.slackFault("conversations.history", "429", options.historyRefusals, { retryAfter: 60 });
  for (let m = 0; m < options.minutesBetween; m++) await minute(bot, t0, m);
  const second = [];
  for (const t of tests.slice(3)) second.push(await org.addRun(t.id, "failed"));
  return { bot, tests, t0, first, second, next: options.minutesBetween };
}

describe("an outage message whose answer was lost, while the channel's next outage begins", () => {
  it("does not hold the next outage back: its runs are told within minutes, each once, and the first outage's runs at its bound", async () => {
    const { bot, tests, t0, first, second, next } = await twoOutages({
      historyRefusals: 10_000,
      minutesBetween: 3,
    });
    let m = next;
    for (const end = m + 3; m <= end; m++) await minute(bot, t0, m);
    for (const run of second) expect(await copiesNaming(bot, run.id)).toBe(1);

    for (; m <= SETTLE_BOUND_MS / MINUTE + 4; m++) await minute(bot, t0, m);
    for (const t of tests) expect(await unfatedFailures(bot, "test", t.id)).toEqual([]);
    for (const run of first) expect(await copiesNaming(bot, run.id)).toBeGreaterThanOrEqual(1);
    for (const run of second) expect(await copiesNaming(bot, run.id)).toBe(1);
    expect((await health(bot)).overdue).toBe(0);
  });
});

describe("an outage message set aside while its outcome was unknown", () => {
  it("is found later: its runs adopt its thread, told once, long before the bound", async () => {
    // History refused for a few reads, then answered.
    const { bot, tests, t0, first, second, next } = await twoOutages({
      historyRefusals: 2,
      minutesBetween: 2,
    });
    for (let m = next; m <= 10; m++) await minute(bot, t0, m);

    for (const run of [...first, ...second]) expect(await copiesNaming(bot, run.id)).toBe(1);
    for (const t of tests) expect(await unfatedFailures(bot, "test", t.id)).toEqual([]);
    const outages = (await bot.posted()).filter((p) => /failing at once|failed at once/.test(p.text ?? ""));
    expect(outages.length).toBe(2);
    for (const [i, t] of tests.entries()) {
      const run = [...first, ...second][i] as { id: number };
      const row = (await ledgerOf(bot, "test", t.id)).find((r) => r.id === run.id);
      const parent = outages.find((o) => runIdsIn(visibleText(o)).includes(run.id));
      expect(parent).toBeDefined();
      expect(row?.ts).toBe(parent?.ts);
    }
    expect((await health(bot)).overdue).toBe(0);
  });
});

describe("an alert whose answer was lost, while the bot checks whether it landed", () => {
  it("is not called 'not working' in the channel: checking is not failing, and the bound decides at 30 minutes", async () => {
    const { bot, test, t0 } = await lostAlert({ events: false, historyRefused: true });
    for (let m = 1; m <= 20; m++) await minute(bot, t0, m);
    const said = (await bot.posted()).map((p) => visibleText(p)).join("\n");
    expect(said).not.toMatch(/have not worked/);
    const status = visibleText(JSON.parse((await bot.command("/decipher", "status")).body));
    expect(status).toMatch(/checking/);
    expect(await unfatedFailures(bot, "test", test.id)).not.toEqual([]);
  });
});
