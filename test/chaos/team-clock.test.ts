import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { EmulatorOrg } from "../../dev/emulator/control-client.ts";
import { createRng, type Rng } from "../../dev/emulator/rng.ts";
import { type Bot, createBot, emulator } from "../../dev/in-workerd/bot.ts";
import { type Env, readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { IDLE_POLL_MS } from "../../src/model/poll-clock.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import type { RegistryObject } from "../../src/objects/registry-object.ts";
import { TICK_CALLS_PER_INVOCATION } from "../../src/objects/team-clock.ts";
import { ledgerOf, registryShard, subscriptionStub } from "../helpers/cases.ts";
import { onPurpose } from "../helpers/on-purpose.ts";
import { copiesIn, owedOutboxKeys } from "./channel-copies.ts";

/**
 * Exactly-once delivery when the team's clock polls (issue #35, src/objects/team-clock.ts):
 * the registry shard's alarm asks every subscription of the team to poll, each polls beside
 * its answer. Seeded rounds move the vendor's data, inject Slack and vendor faults, and drive
 * the clock in one of five shapes: a plain tick; the shard aborted while its tick is calling
 * the subscriptions (the platform retries the alarm on a fresh instance); subscription
 * objects aborted between the tick's call and their poll (the poll beside the answer lost);
 * the watchdog cron firing while the tick runs; the team resized (other tests subscribed,
 * unsubscribed, moved to the other channel) while a failure is held in a channel's outage
 * window. Then faults clear and the clocks run until nothing is left (no window open, no
 * outcome unknown, every failed run with a fate), and every failed run of the watched tests
 * must be in each channel watching it exactly once.
 *
 * The same rounds run again in a team past one invocation's calls (TICK_CALLS_PER_INVOCATION
 * other subscriptions ahead of the world's in the shard): each tick reaches the world's tests
 * in its second part, armed for now by the first, so a shard dying mid-tick, the watchdog and
 * the resizing meet a tick between its parts.
 *
 * The objects run on the worker's own bindings (POLL_CLOCK=alarms for this file): a shard or
 * subscription restarted by a fault has no config in memory and reads them, as on Cloudflare.
 * Rounds: CHAOS_TEAM_ROUNDS (vitest.chaos.config.ts; `npm test` runs 6, and 2 in the big
 * team), seed CHAOS_SEED.
 */

const provided = (key: string) => (inject as (k: string) => unknown)(key) as number | undefined;
const SEED = provided("chaosSeed") ?? 20261129;
const ROUNDS = provided("chaosTeamRounds") ?? 6;
/** Rounds in a team past one invocation's calls: each tick there asks 800 objects more. */
const BIG_ROUNDS = Math.max(2, Math.round(ROUNDS / 3));
const CHANNELS = ["C0ALERTS", "C0GENERAL"] as const;
/** The settle's steps: each a tick, the windows closed, the running runs' own alarms. */
const MAX_SETTLE_STEPS = 30;
/** Background polls (beside a tick's answer) are done once nothing moved for this long. */
const QUIET_MS = 500;
/** Past every lease: the watchdog wakes a team whose clock stopped (src/objects/subscription-clock.ts). */
const WATCHDOG_LATER_MS = 20 * 60_000;
const BINDINGS = {
  POLL_CLOCK: "alarms",
  SLACK_TIMEOUT_MS: "400",
  VENDOR_TIMEOUT_MS: "300",
  // Real time: an unknown outcome is looked up at the next poll.
  SLACK_LOOKUP_AFTER_MS: "0",
};

type Watch = { channel: string; testId: number };
type World = {
  bot: Bot;
  /** Past one invocation's calls (pastOnePart). */
  big: boolean;
  org: EmulatorOrg;
  /** Watched all along: their failures are audited. */
  watched: Watch[];
  stable: number[];
  /** Tests subscribed, unsubscribed and moved: the team's size changes under the clock. */
  churn: Map<number, string | null>;
  running: Array<{ runId: number; testId: number }>;
  expected: Set<string>;
  /** Runs of the world's tests that are not failures of a watched test: never announced. */
  quiet: Set<number>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const channelStub = async (bot: Bot, channelId: string) =>
  env.CHANNELS.get(env.CHANNELS.idFromName(objectNames.channel(await bot.team(), channelId)));

async function subscribe(bot: Bot, testId: number, channelId: string, verb = "subscribe") {
  const res = await bot.command("/decipher", `${verb} test ${testId}`, { channelId });
  expect(res.status).toBe(200);
}

/**
 * A team past one invocation's calls: the shard's index gets TICK_CALLS_PER_INVOCATION other
 * subscriptions ahead of the world's (their objects hold no subscription: asked, they answer at
 * once), so each tick reaches the world's tests only in its second part, in the invocation the
 * first part armed for now.
 */
async function pastOnePart(w: World): Promise<void> {
  const teamId = await w.bot.team();
  await runInDurableObject(await shardOf(w), (_i, state) => {
    const sql = state.storage.sql;
    const own = sql.exec<Record<string, SqlStorageValue>>("SELECT * FROM leases").toArray();
    sql.exec("DELETE FROM leases");
    for (let i = 0; i < TICK_CALLS_PER_INVOCATION; i++) {
      const ref = { teamId, channelId: ELSEWHERE, kind: "test" as const, id: 9_000_000 + i };
      const name = objectNames.subscription(ref);
      sql.exec(
        "INSERT INTO leases (name, ref, until) VALUES (?, ?, ?)",
        name,
        JSON.stringify(ref),
        DAY_LATER(),
      );
    }
    for (const row of own) {
      const columns = Object.keys(row);
      sql.exec(
        `INSERT INTO leases (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        ...columns.map((c) => row[c] as SqlStorageValue),
      );
    }
  });
}

const DAY_LATER = () => Date.now() + 24 * 60 * 60_000;
const ELSEWHERE = "C0ELSEWHERE";

/**
 * The team's shard, its calls to the other subscriptions answered at once as an idle one's
 * would be (through the object's `env`, read at each call, as bench/day/counting.ts counts
 * calls): 800 more objects in this one workerd would exhaust it ("Network connection lost").
 */
async function shardOf(w: World): Promise<DurableObjectStub<RegistryObject>> {
  const shard = await registryShard(w.bot);
  if (!w.big) return shard;
  await runInDurableObject(shard, (instance: unknown) => {
    const self = instance as { env: Env & { othersAnswered?: true } };
    if (self.env.othersAnswered) return;
    const real = self.env.SUBSCRIPTIONS;
    const elsewhere = (name: unknown) => typeof name === "string" && name.includes(`:${ELSEWHERE}:`);
    const subscriptions = {
      idFromName: (name: string) => (elsewhere(name) ? name : real.idFromName(name)),
      get: (id: DurableObjectId | string) =>
        typeof id === "string" ? { tick: async () => IDLE_POLL_MS } : real.get(id),
    };
    self.env = { ...self.env, SUBSCRIPTIONS: subscriptions as never, othersAnswered: true };
  });
  return shard;
}

async function newWorld(big: boolean): Promise<World> {
  const apiKey = env.DECIPHER_API_KEY as string;
  const bot = createBot({ apiKey, botToken: env.SLACK_BOT_TOKEN as string });
  const org = emulator.org(apiKey);
  const tests: number[] = [];
  for (let i = 0; i < 6; i++) {
    const test = await org.addTest(`team clock chaos ${i} ${crypto.randomUUID().slice(0, 6)}`);
    await org.addRun(test.id, "passed");
    tests.push(test.id);
  }
  const [a, b, c, ...others] = tests as [number, number, number, ...number[]];
  const watched: Watch[] = [
    { channel: "C0ALERTS", testId: a },
    { channel: "C0GENERAL", testId: a },
    { channel: "C0ALERTS", testId: b },
    { channel: "C0ALERTS", testId: c },
  ];
  for (const s of watched) await subscribe(bot, s.testId, s.channel);
  const churn = new Map<number, string | null>(others.map((id) => [id, null]));
  const w = {
    bot,
    org,
    big,
    watched,
    stable: [a, b, c],
    churn,
    running: [],
    expected: new Set<string>(),
    quiet: new Set<number>(),
  };
  // Each subscription's first poll (its own alarm, a second after subscribing) starts the team's clock.
  for (const stub of await subscriptionStubs(w)) await runDurableObjectAlarm(stub);
  if (big) {
    await pastOnePart(w);
    // The world's tests come after one invocation's calls: a tick reaches them in its next part.
    const order = await runInDurableObject(await shardOf(w), (_i, state) =>
      // The columns the clock reads (src/objects/registry-object.ts `#entries`), in its order.
      state.storage.sql.exec<{ name: string }>("SELECT name, ref FROM leases").toArray(),
    );
    const first = order.findIndex((row) => !row.name.includes(`:${ELSEWHERE}:`));
    expect(first).toBeGreaterThanOrEqual(TICK_CALLS_PER_INVOCATION);
  }
  await backgroundDone(w);
  return w;
}

function failed(w: World, testId: number, runId: number): void {
  for (const s of w.watched.filter((x) => x.testId === testId)) w.expected.add(`${s.channel}:${runId}`);
}

/** New runs and some running ones ending. Churned tests fail too: their alerts are not audited. */
async function moveWorld(w: World, r: Rng): Promise<void> {
  const stillRunning = w.running.splice(0);
  for (const testId of [...w.stable, ...w.churn.keys()]) {
    const roll = r.next();
    const watched = w.stable.includes(testId);
    if (roll < 0.35) {
      const run = await w.org.addRun(testId, "failed");
      if (watched) failed(w, testId, run.id);
    } else if (roll < 0.5) w.quiet.add((await w.org.addRun(testId, "passed")).id);
    else if (roll < 0.6) w.running.push({ runId: (await w.org.addRun(testId, "running")).id, testId });
  }
  for (const run of stillRunning) {
    if (r.chance(0.4)) {
      await w.org.setRun(run.runId, "failed");
      if (w.stable.includes(run.testId)) failed(w, run.testId, run.runId);
    } else if (r.chance(0.5)) {
      await w.org.setRun(run.runId, "passed");
      w.quiet.add(run.runId);
    } else w.running.push(run);
  }
}

/** Until the vendor and Slack saw no new request for QUIET_MS: the polls beside the answers are done. */
async function backgroundDone(w: World): Promise<void> {
  const mark = async () => `${await w.org.requestTotal()}:${(await w.bot.slackCalls()).length}`;
  let last = await mark();
  for (let i = 0; i < 40; i++) {
    await sleep(QUIET_MS);
    const now = await mark();
    if (now === last) return;
    last = now;
  }
}

const subscriptionStubs = async (w: World) => {
  const stubs = w.watched.map((s) => subscriptionStub(w.bot, "test", s.testId, s.channel));
  for (const [id, channel] of w.churn) if (channel) stubs.push(subscriptionStub(w.bot, "test", id, channel));
  return Promise.all(stubs);
};

const heldIn = (stub: DurableObjectStub) =>
  runInDurableObject(stub, async (_i, state) => {
    const window = await state.storage.get<{ holds: Record<string, unknown> }>("window");
    return Object.keys(window?.holds ?? {}).length;
  });

async function heldFailures(w: World): Promise<number> {
  let n = 0;
  for (const channel of CHANNELS) n += await heldIn(await channelStub(w.bot, channel));
  return n;
}

/** The shard's alarm as the platform fires it; false when no tick was armed (the clock stopped). */
const tick = async (w: World) => runDurableObjectAlarm(await shardOf(w));

/** A whole tick: its parts too, each armed for now by the one before (when the platform has not run it already). */
async function wholeTick(w: World): Promise<boolean> {
  const ran = await tick(w);
  const shard = await shardOf(w);
  for (let part = 0; part < 3; part++) {
    const at = await runInDurableObject(shard, (_i, state) => state.storage.getAlarm());
    if (at === null || at > Date.now() + 1_000) break;
    await tick(w);
  }
  return ran;
}

const watchdog = (w: World, later: number) =>
  runPollCycle(w.bot.env as never, readConfig(w.bot.env as never), { now: new Date(Date.now() + later) });

const abort = (stub: DurableObjectStub, what: string) =>
  runInDurableObject(stub, (_i, state) => state.abort(onPurpose(what))).catch(() => {});

/** Other tests of the team subscribed, unsubscribed, or moved to the other channel. */
async function resize(w: World, r: Rng, note: (what: string) => void): Promise<void> {
  for (let n = r.int(1, 3); n > 0; n--) {
    const testId = r.pick([...w.churn.keys()]);
    const channel = w.churn.get(testId) ?? null;
    if (channel === null) {
      const to = r.pick([...CHANNELS]);
      await subscribe(w.bot, testId, to);
      w.churn.set(testId, to);
      note("a test subscribed");
    } else if (r.chance(0.5)) {
      await subscribe(w.bot, testId, channel, "unsubscribe");
      w.churn.set(testId, null);
      note("a test unsubscribed");
    } else {
      const to = CHANNELS.find((c) => c !== channel) as string;
      await subscribe(w.bot, testId, channel, "unsubscribe");
      await subscribe(w.bot, testId, to);
      w.churn.set(testId, to);
      note("a test moved to the other channel");
    }
  }
}

/** The clock, in one of five shapes. */
async function driveClock(
  w: World,
  r: Rng,
  note: (what: string) => void,
  violations: string[],
): Promise<void> {
  const shape = r.next();
  if (shape < 0.2) {
    note((await tick(w)) ? "tick" : "tick: clock stopped");
  } else if (shape < 0.4) {
    // Some subscriptions asked, some not: the shard's instance dies under its alarm.
    const before = await w.org.requestTotal();
    const dying = tick(w).then(
      () => false,
      () => true,
    );
    for (let i = 0; i < 100 && (await w.org.requestTotal()) === before; i++) await sleep(2);
    // The alarm it armed (the next tick, or the rest of this one for now) is put back once the
    // next instance answers the others at once: the platform would fire it on that instance.
    const pending = await runInDurableObject(await shardOf(w), async (_i, state) => {
      const at = await state.storage.getAlarm();
      if (w.big) {
        await state.storage.deleteAlarm();
        await state.storage.sync();
      }
      return at;
    }).catch(() => null);
    await abort(await registryShard(w.bot), "a team clock mid-tick");
    if (w.big && pending !== null)
      await runInDurableObject(await shardOf(w), (_i, state) => state.storage.setAlarm(pending));
    const threw = await dying;
    await backgroundDone(w);
    const asked = await w.org.requestTotal();
    // The platform retries an alarm that threw (runDurableObjectAlarm deleted it before running
    // it); a tick that died after arming its successor has that successor instead.
    const shard = await shardOf(w);
    const armed = (await runInDurableObject(shard, (_i, state) => state.storage.getAlarm())) !== null;
    if (!armed && threw) await runInDurableObject(shard, (_i, state) => state.storage.setAlarm(Date.now()));
    if (!(await wholeTick(w))) return note("tick: clock stopped by a shard aborted mid-tick");
    await backgroundDone(w);
    const subscriptions = (await subscriptionStubs(w)).length;
    const reached = (await w.org.requestTotal()) - asked;
    note(armed ? "shard aborted mid-tick, its next tick armed" : "shard aborted mid-tick, alarm retried");
    if (reached < subscriptions)
      violations.push(`the retried tick read ${reached} of ${subscriptions} tests`);
  } else if (shape < 0.6) {
    // The tick's calls answered; the polls beside the answers die with their instances.
    await tick(w);
    await sleep(r.int(0, 40));
    for (const stub of await subscriptionStubs(w))
      if (r.chance(0.5)) await abort(stub, "a subscription between a tick's call and its poll");
    note("subscriptions aborted after the tick's call");
  } else if (shape < 0.8) {
    const later = r.chance(0.5) ? WATCHDOG_LATER_MS : 0;
    await Promise.all([tick(w), watchdog(w, later)]);
    note(later ? "watchdog waking everyone while a tick runs" : "watchdog while a tick runs");
  } else {
    await tick(w);
    await backgroundDone(w);
    note((await heldFailures(w)) > 0 ? "resized while a failure is held" : "resized, nothing held");
    await resize(w, r, note);
    if (r.chance(0.5)) await tick(w);
  }
}

type Tally = { expected: number; posted: number; lost: number; duplicated: number; unexpected: number };

async function audit(w: World, violations: string[]): Promise<Tally> {
  const { shown, unreadable } = await copiesIn(w.bot, CHANNELS);
  violations.push(...unreadable);
  const t: Tally = { expected: w.expected.size, posted: 0, lost: 0, duplicated: 0, unexpected: 0 };
  for (const key of w.expected) {
    const n = shown.get(key) ?? 0;
    if (n > 0) t.posted++;
    else {
      t.lost++;
      violations.push(`${key} never announced`);
    }
    if (n > 1) {
      t.duplicated += n - 1;
      violations.push(`${key} announced ${n} times`);
    }
  }
  for (const [key, n] of shown) {
    const run = Number(key.split(":")[1]);
    if (w.quiet.has(run) || isWatchedRunElsewhere(w, key)) {
      t.unexpected += n;
      violations.push(`${key} announced but no failure of a test that channel watches`);
    }
  }
  for (const s of w.watched)
    for (const row of await ledgerOf(w.bot, "test", s.testId, s.channel))
      if (row.status === "failed" && row.fate === null)
        violations.push(`${s.channel}:${row.id} left without a fate`);
  return t;
}

/** A failure of a watched test shown in a channel that does not watch that test. */
function isWatchedRunElsewhere(w: World, key: string): boolean {
  const [channel, run] = key.split(":");
  const expectedSomewhere = CHANNELS.some((c) => w.expected.has(`${c}:${run}`));
  return expectedSomewhere && !w.expected.has(`${channel}:${run}`);
}

/** Faults cleared; ticks, windows closed and own alarms until nothing is left to do. */
async function settle(w: World, note: (what: string) => void): Promise<boolean> {
  await w.org.clearFaults();
  await w.bot.clearSlackFaults();
  for (let step = 0; step < MAX_SETTLE_STEPS; step++) {
    const posts = (await w.bot.slackCalls()).length;
    if (!(await wholeTick(w))) {
      note("settle: clock stopped, woken by the watchdog");
      await watchdog(w, WATCHDOG_LATER_MS);
    }
    await backgroundDone(w);
    for (const channel of CHANNELS) await runDurableObjectAlarm(await channelStub(w.bot, channel));
    for (const stub of await subscriptionStubs(w)) await runDurableObjectAlarm(stub);
    await backgroundDone(w);
    if ((await w.bot.slackCalls()).length !== posts) continue;
    if ((await heldFailures(w)) > 0) continue;
    let owed = false;
    for (const stub of await subscriptionStubs(w)) owed ||= (await owedOutboxKeys(stub)).length > 0;
    if (owed) continue;
    let unfated = false;
    for (const s of w.watched)
      unfated ||= (await ledgerOf(w.bot, "test", s.testId, s.channel)).some(
        (row) => row.status === "failed" && row.fate === null,
      );
    if (!unfated) return true;
  }
  return false;
}

async function chaos(seed: number, rounds: number, options: { big?: boolean } = {}) {
  const r = createRng(seed);
  const started = Date.now();
  const faults: Record<string, number> = {};
  let thisRound: string[] = [];
  const clockStops: string[] = [];
  const note = (what: string) => {
    faults[what] = (faults[what] ?? 0) + 1;
    // The watchdog starts a stopped clock again, 15 minutes late: a finding, though no alert is lost.
    if (what.includes("clock stopped")) clockStops.push(`${what} after ${thisRound.join(", ")}`);
    thisRound.push(what);
  };
  const violations: string[] = [];
  const w = await newWorld(options.big ?? false);
  let tally: Tally = { expected: 0, posted: 0, lost: 0, duplicated: 0, unexpected: 0 };
  const reported = new Set<string>();
  for (let round = 1; round <= rounds; round++) {
    thisRound = [];
    await moveWorld(w, r);
    if (r.chance(0.3)) {
      const kind = r.pick(["429", "500", "malformed", "hang"] as const);
      await w.org.fault("testRuns", kind, kind === "hang" ? 1 : r.int(1, 3), 0);
      note(`vendor ${kind}`);
    }
    if (r.chance(0.35)) {
      const kind = r.pick(["429", "500", "hang", "lost"] as const);
      const extra = kind === "429" ? { retryAfter: 0 } : kind === "hang" ? { delayMs: 900 } : {};
      await w.bot.slackFault("chat.postMessage", kind, r.int(1, 2), extra);
      note(`slack ${kind}`);
    }
    await driveClock(w, r, note, violations);
    if (r.chance(0.3)) {
      // A window closed before every test of the channel answered it.
      await backgroundDone(w);
      for (const channel of CHANNELS) await runDurableObjectAlarm(await channelStub(w.bot, channel));
      note("window closed early");
    }
    if (!(await settle(w, note)))
      violations.push(`round ${round}: not settled after ${MAX_SETTLE_STEPS} steps`);
    const found: string[] = [];
    tally = await audit(w, found);
    for (const v of found.filter((x) => !reported.has(x))) {
      reported.add(v);
      violations.push(`round ${round}: ${v}`);
    }
  }
  const summary = {
    seed,
    rounds,
    team: options.big ? "past one invocation's calls" : "small",
    seconds: Math.round((Date.now() - started) / 100) / 10,
    faults,
    /** Ticks that found no alarm armed: the watchdog restarts such a clock, 15 minutes late. */
    clockStops,
    failedRunAlerts: tally,
    violations: violations.slice(0, 30),
    violationCount: violations.length,
  };
  console.log(`CHAOS_TEAM_CLOCK ${JSON.stringify(summary)}`);
  return summary;
}

// The objects read these when a fault took the config they were handed (a fresh instance).
const bindings = env as unknown as Record<string, unknown>;
const saved: Record<string, unknown> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(BINDINGS)) {
    saved[k] = bindings[k];
    bindings[k] = v;
  }
});
afterAll(() => Object.assign(bindings, saved));

it(
  `team clock exactly once: ${ROUNDS} seeded rounds (seed ${SEED}) of shards dying mid-tick, resized teams and lost polls`,
  async () => {
    const summary = await chaos(SEED, ROUNDS);
    expect(summary.violations).toEqual([]);
    expect(summary.clockStops).toEqual([]);
    expect(summary.failedRunAlerts.expected).toBeGreaterThan(0);
  },
  Math.max(120_000, ROUNDS * 20_000),
);

it(
  `team clock exactly once in a team past one invocation's ${TICK_CALLS_PER_INVOCATION} calls: ${BIG_ROUNDS} seeded rounds (seed ${SEED + 1})`,
  async () => {
    const summary = await chaos(SEED + 1, BIG_ROUNDS, { big: true });
    expect(summary.violations).toEqual([]);
    expect(summary.clockStops).toEqual([]);
    expect(summary.failedRunAlerts.expected).toBeGreaterThan(0);
  },
  Math.max(180_000, BIG_ROUNDS * 60_000),
);
