import { env, runInDurableObject } from "cloudflare:test";
import { it } from "vitest";
import { createBot, emulator, newOrg } from "../dev/in-workerd/bot.ts";
import { readConfig } from "../src/config.ts";
import { runPollCycle } from "../src/cron.ts";
import {
  IDLE_POLL_MS,
  LEASE_MS,
  LEASE_RENEW_MS,
  RUNNING_POLL_MS,
  WATCHDOG_SHARDS_PER_CYCLE,
  WATCHDOG_WAKES_PER_CYCLE,
} from "../src/model/poll-clock.ts";
import { objectNames } from "../src/objects/addresses.ts";
import type { ShardSummary } from "../src/objects/registry-directory.ts";
import type { RegistryObject } from "../src/objects/registry-object.ts";

/**
 * The clock's costs (`npm run bench:clock`, through bench/clock.ts), counted in workerd with the
 * emulator and the Slack stand-in as the vendor and Slack:
 * - the watchdog cron at 10, 1,000 and 10,000 subscriptions over 1, 10 and 1,000 Slack teams
 *   (registry shards): its calls to Durable Objects and KV (internal subrequests, limit 1,000)
 *   and its fetches (external, limit 50), when every clock runs and when 1 % of them stopped;
 *   the largest shard's and the directory's SQLite size;
 * - one object's alarm, idle, renewing its lease, and while a run is running: vendor requests,
 *   its storage and KV writes, its calls to other objects; and from these, a day of 20
 *   subscriptions with 24 runs per test.
 * Prints `CLOCK_JSON` lines for bench/clock.ts.
 */

type Calls = Record<string, number>;
let calls: Calls = {};
let fetches = 0;
let kvOps = 0;

function countedNamespace(ns: DurableObjectNamespace, kind: string): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) =>
      new Proxy(ns.get(id), {
        get(target, prop) {
          const value = Reflect.get(target, prop);
          if (typeof prop !== "string" || prop === "then" || typeof value !== "function") return value;
          return (...args: unknown[]) => {
            calls[`${kind}.${prop}`] = (calls[`${kind}.${prop}`] ?? 0) + 1;
            return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
          };
        },
      }),
  } as unknown as DurableObjectNamespace;
}

function countedKv(kv: KVNamespace): KVNamespace {
  return new Proxy(kv, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        kvOps++;
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
}

const total = (c: Calls) => Object.values(c).reduce((a, b) => a + b, 0);
const registryStub = (name: string) => env.REGISTRY.get(env.REGISTRY.idFromName(name));
const directoryStub = () => registryStub(objectNames.registryDirectory());

/**
 * `n` subscriptions (their objects empty) over `teams` registry shards, subscription i in team
 * i mod `teams`, leases alive except the first `stopped` (so they fall in as many teams as they
 * can); and the directory as the shards would have told it. Returns the largest shard's size.
 */
async function padShards(label: string, n: number, teams: number, stopped: number) {
  await runInDurableObject(directoryStub(), (_i, state) => state.storage.deleteAll());
  const alive = Date.now() + LEASE_MS;
  const at = new Date().toISOString();
  const summaries: ShardSummary[] = [];
  let largest = { subscriptions: 0, bytes: 0 };
  for (let t = 0; t < teams; t++) {
    const teamId = `T${label}X${t}`;
    const size = await runInDurableObject(
      registryStub(objectNames.registry(teamId)),
      async (instance: RegistryObject, state) => {
        await state.storage.deleteAll();
        await instance.list(); // makes the shard's table
        let count = 0;
        let first = Number.POSITIVE_INFINITY;
        for (let i = t; i < n; i += teams) {
          const ref = {
            teamId,
            channelId: `C${Math.floor(i / 20)}`,
            kind: "test" as const,
            id: 1000 + (i % 20),
          };
          const until = i < stopped ? 0 : alive;
          first = Math.min(first, until);
          state.storage.sql.exec(
            "INSERT INTO leases (name, ref, until, status, at, overdue) VALUES (?, ?, ?, 'ok', ?, 0)",
            objectNames.subscription(ref),
            JSON.stringify(ref),
            until,
            at,
          );
          count++;
        }
        summaries.push({
          teamId,
          checkAt: count > 0 ? first : null,
          subscriptions: count,
          erroring: 0,
          paused: 0,
          overdue: 0,
          lastSuccessAt: at,
          workspace: null,
          seq: Date.now(),
        });
        return { subscriptions: count, bytes: state.storage.sql.databaseSize };
      },
    );
    if (size.subscriptions > largest.subscriptions) largest = size;
  }
  const directoryBytes = await runInDurableObject(directoryStub(), (instance: RegistryObject, state) => {
    for (const s of summaries) instance.noteShard(s);
    return state.storage.sql.databaseSize;
  });
  return { largest, directoryBytes };
}

async function cronAt(n: number, teams: number, stoppedShare: number) {
  const stopped = Math.round(n * stoppedShare);
  const sizes = await padShards(`${n}T${teams}S${stopped}`, n, teams, stopped);
  const bot = createBot({ apiKey: await newOrg(), env: { POLL_CLOCK: "alarms" } });
  const cronEnv = {
    ...bot.env,
    STATE: countedKv(bot.env.STATE),
    SUBSCRIPTIONS: countedNamespace(env.SUBSCRIPTIONS, "subscription"),
    REGISTRY: countedNamespace(env.REGISTRY, "registry"),
    CHANNELS: countedNamespace(env.CHANNELS, "channel"),
  };
  calls = {};
  kvOps = 0;
  fetches = 0;
  const realFetch = globalThis.fetch;
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
    fetches++;
    return realFetch(...args);
  }) as typeof fetch;
  const start = Date.now();
  try {
    const report = await runPollCycle(cronEnv as never, readConfig(cronEnv as never), { now: new Date() });
    return {
      kind: "cron",
      n,
      teams,
      stopped,
      woken: report.subscriptions,
      internal: total(calls) + kvOps,
      doCalls: calls,
      kvOps,
      external: fetches,
      wallMs: Date.now() - start,
      largestShard: sizes.largest,
      directoryBytes: sizes.directoryBytes,
    };
  } finally {
    globalThis.fetch = realFetch;
  }
}

it("the watchdog cron's cost at 10, 1,000 and 10,000 subscriptions, over 1, 10 and 1,000 teams", async () => {
  for (const n of [10, 1_000, 10_000]) {
    for (const teams of [1, 10, 1_000].filter((t) => t <= n))
      for (const share of n >= 100 ? [0, 0.01] : [0])
        console.log(`CLOCK_JSON ${JSON.stringify(await cronAt(n, teams, share))}`);
  }
  // Every clock stopped at once (a deploy that lost all alarms): 400 a minute until all restart.
  for (const teams of [1, 1_000]) console.log(`CLOCK_JSON ${JSON.stringify(await cronAt(10_000, teams, 1))}`);
}, 1_800_000);

/** One object's wake, with its calls to other objects counted (its own env wrapped in place). */
async function measuredWake(name: string, config: ReturnType<typeof readConfig>, apiKey: string) {
  const stub = env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));
  await runInDurableObject(stub, (instance: unknown) => {
    const self = instance as { env: Record<string, unknown> };
    if (self.env.__counted) return;
    self.env = {
      ...self.env,
      __counted: true,
      REGISTRY: countedNamespace(env.REGISTRY, "registry"),
      CHANNELS: countedNamespace(env.CHANNELS, "channel"),
      SUBSCRIPTIONS: countedNamespace(env.SUBSCRIPTIONS, "subscription"),
    };
  });
  calls = {};
  const vendorBefore = (await emulator.org(apiKey).requests()).total;
  const report = await stub.wake(new Date().toISOString(), config, { name });
  return {
    vendor: (await emulator.org(apiKey).requests()).total - vendorBefore,
    storageWrites: report.writes.storage,
    kvWrites: report.writes.kv,
    otherObjectCalls: { ...calls },
    status: report.status,
  };
}

it("one object's alarm: idle, renewing its lease, and while a run is running", async () => {
  const apiKey = await newOrg();
  const bot = createBot({ apiKey, env: { POLL_CLOCK: "alarms" } });
  const org = emulator.org(apiKey);
  const test = await org.addTest("Clock bench");
  await bot.command("/decipher", `subscribe test ${test.id}`);
  const name = objectNames.subscription({
    teamId: await bot.team(),
    channelId: "C0ALERTS",
    kind: "test",
    id: test.id,
  });
  const config = readConfig(bot.env);
  // The first wake after the object starts reports once (it does not know what it last said).
  await measuredWake(name, config, apiKey);
  const idle = [];
  for (let i = 0; i < 5; i++) idle.push(await measuredWake(name, config, apiKey));
  const run = await org.addRun(test.id, "running");
  const firstRunning = await measuredWake(name, config, apiKey);
  const running = await measuredWake(name, config, apiKey);
  await org.setRun(run.id, "passed");
  const finished = await measuredWake(name, config, apiKey);
  console.log(
    `CLOCK_JSON ${JSON.stringify({
      kind: "alarm",
      idle,
      firstRunning,
      running,
      finished,
      constants: {
        RUNNING_POLL_MS,
        IDLE_POLL_MS,
        LEASE_RENEW_MS,
        LEASE_MS,
        WATCHDOG_WAKES_PER_CYCLE,
        WATCHDOG_SHARDS_PER_CYCLE,
      },
    })}`,
  );
}, 120_000);
