import { env, runInDurableObject } from "cloudflare:test";
import { inject, it } from "vitest";
import { type Bot, createBot, emulator, newOrg } from "../dev/in-workerd/bot.ts";
import { readConfig } from "../src/config.ts";
import { type CycleReport, runPollCycle } from "../src/cron.ts";
import type { SubscriptionRef } from "../src/model/alert-control.ts";
import { objectNames } from "../src/objects/addresses.ts";
import { mapLimit } from "../src/util/map-limit.ts";

/**
 * Cost of an idle poll cycle of the Durable Object engine (`npm run bench:poll-cost`, through
 * bench/poll-cost.ts). Every figure is counted, none is derived from reading the code:
 * - vendor requests: the emulator's per-organization counter;
 * - Durable Object requests: every RPC method call on a stub (one billed request each), counted
 *   by wrapping the namespaces the cycle is given, with each call's wall time;
 * - DO storage: `put`/`delete` (and rows, one per key) and `get` calls of every subscription
 *   object and of the registry, counted by wrapping each object's `ctx.storage` in place;
 * - KV writes: the objects' own (their `env.STATE`, wrapped in place), the worker's (the
 *   harness's counting KV) and what the objects report (`CycleReport.writes.kv`).
 * Prints one `BENCH_JSON` line per size for bench/poll-cost.ts.
 */

const SIZES = ((inject as (key: string) => unknown)("pollCostSizes") as number[] | undefined) ?? [1, 20, 100];
const IDLE_CYCLES = 10;
const CHANNELS = ["C0ALERTS", "C0GENERAL", "C0DEMO"] as const;

type Storage = { puts: number; rows: number; deletes: number; gets: number };
type Counters = {
  doRequests: Record<string, number>;
  /** Wall ms of each Durable Object call, by method. */
  doWall: Record<string, number[]>;
  storage: { subscriptions: Storage; registry: Storage };
  objectKvWrites: number;
};

const zeroStorage = (): Storage => ({ puts: 0, rows: 0, deletes: 0, gets: 0 });
const zero = (): Counters => ({
  doRequests: {},
  doWall: {},
  storage: { subscriptions: zeroStorage(), registry: zeroStorage() },
  objectKvWrites: 0,
});
/** Shared by the test and the objects: they run in the same isolate under vitest-pool-workers. */
let counters = zero();

/** A stub whose method calls (each one billed Durable Object request) are counted and timed. */
function countedStub<T extends object>(stub: T, kind: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof prop !== "string" || prop === "then" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        const key = `${kind}.${prop}`;
        counters.doRequests[key] = (counters.doRequests[key] ?? 0) + 1;
        const start = Date.now();
        try {
          return await Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args);
        } finally {
          const walls = counters.doWall[key] ?? [];
          walls.push(Date.now() - start);
          counters.doWall[key] = walls;
        }
      };
    },
  });
}

function countedNamespace(ns: DurableObjectNamespace, kind: string): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => countedStub(ns.get(id), kind),
  } as unknown as DurableObjectNamespace;
}

type Instrumented = { storage: DurableObjectStorage; env: { STATE: KVNamespace } };

/** Wraps one live object's storage and KV binding in place (until it is evicted). */
async function instrument(stub: DurableObjectStub, which: "subscriptions" | "registry") {
  await runInDurableObject(stub, (instance: unknown, state) => {
    const storage = state.storage as DurableObjectStorage & Record<string, unknown>;
    const count = storage as unknown as { __counted?: boolean };
    if (count.__counted) return;
    count.__counted = true;
    const put = storage.put.bind(storage);
    const del = storage.delete.bind(storage);
    const get = storage.get.bind(storage);
    storage.put = ((keyOrEntries: string | Record<string, unknown>, ...rest: unknown[]) => {
      const c = counters.storage[which];
      c.puts++;
      c.rows += typeof keyOrEntries === "string" ? 1 : Object.keys(keyOrEntries).length;
      return (put as (...a: unknown[]) => Promise<void>)(keyOrEntries, ...rest);
    }) as typeof storage.put;
    storage.delete = ((...args: unknown[]) => {
      counters.storage[which].deletes++;
      return (del as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as typeof storage.delete;
    storage.get = ((...args: unknown[]) => {
      counters.storage[which].gets++;
      return (get as (...a: unknown[]) => Promise<unknown>)(...args);
    }) as typeof storage.get;
    const self = instance as Instrumented;
    const kv = self.env.STATE;
    const kvPut = kv.put.bind(kv);
    self.env = {
      ...self.env,
      STATE: new Proxy(kv, {
        get(target, prop) {
          if (prop === "put")
            return (...args: unknown[]) => {
              counters.objectKvWrites++;
              return (kvPut as (...a: unknown[]) => Promise<void>)(...args);
            };
          const value = Reflect.get(target, prop);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
  });
}

async function vendorCount(apiKey: string): Promise<number> {
  return (await emulator.org(apiKey).requests()).total;
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    n: values.length,
    mean: values.length ? sum / values.length : 0,
    p50: at(0.5),
    p95: at(0.95),
    sum,
  };
}

/** Posts Slack stored (the stand-in's call log): alerts, replies and outage messages alike. */
async function slackPosts(bot: Bot): Promise<number> {
  return (await bot.slackCalls()).filter((c) => c.method === "chat.postMessage" && c.ok).length;
}

async function measuredCycle(bot: Bot, apiKey: string) {
  const cycleEnv = {
    ...bot.env,
    SUBSCRIPTIONS: countedNamespace(env.SUBSCRIPTIONS, "subscription"),
    REGISTRY: countedNamespace(env.REGISTRY, "registry"),
    CHANNELS: countedNamespace(env.CHANNELS, "channel"),
  };
  counters = zero();
  const vendorBefore = await vendorCount(apiKey);
  const workerKvBefore = bot.kv.writes;
  const slackBefore = await slackPosts(bot);
  const start = Date.now();
  const report: CycleReport = await runPollCycle(cycleEnv as never, readConfig(bot.env as never), {
    now: new Date(),
  });
  const wallMs = Date.now() - start;
  const c = counters;
  return {
    report,
    wallMs,
    vendor: (await vendorCount(apiKey)) - vendorBefore,
    workerKvWrites: bot.kv.writes - workerKvBefore,
    slackPosts: (await slackPosts(bot)) - slackBefore,
    objectKvWrites: c.objectKvWrites,
    doRequests: c.doRequests,
    doWall: c.doWall,
    storage: c.storage,
  };
}

type Cycle = Awaited<ReturnType<typeof measuredCycle>>;

const sumOf = (cycles: Cycle[], f: (c: Cycle) => number) => cycles.reduce((n, c) => n + f(c), 0);
const perCycle = (cycles: Cycle[], f: (c: Cycle) => number) => sumOf(cycles, f) / cycles.length;
const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

function summarize(n: number, cycles: Cycle[]) {
  const keys = [...new Set(cycles.flatMap((c) => Object.keys(c.doRequests)))].sort();
  const polls = cycles.flatMap((c) => c.doWall["subscription.wake"] ?? []);
  const registryCalls = cycles.flatMap((c) =>
    Object.entries(c.doWall)
      .filter(([k]) => k.startsWith("registry."))
      .flatMap(([, v]) => v),
  );
  return {
    cycles: cycles.length,
    vendorRequests: perCycle(cycles, (c) => c.vendor),
    doRequests: perCycle(cycles, (c) => total(c.doRequests)),
    doRequestsByMethod: Object.fromEntries(
      keys.map((k) => [k, perCycle(cycles, (c) => c.doRequests[k] ?? 0)]),
    ),
    kvWrites: {
      reported: perCycle(cycles, (c) => c.report.writes.kv),
      objects: perCycle(cycles, (c) => c.objectKvWrites),
      worker: perCycle(cycles, (c) => c.workerKvWrites),
    },
    storage: {
      reported: perCycle(cycles, (c) => c.report.writes.storage),
      subscriptions: {
        puts: perCycle(cycles, (c) => c.storage.subscriptions.puts),
        rows: perCycle(cycles, (c) => c.storage.subscriptions.rows),
        deletes: perCycle(cycles, (c) => c.storage.subscriptions.deletes),
        gets: perCycle(cycles, (c) => c.storage.subscriptions.gets),
      },
      registry: {
        puts: perCycle(cycles, (c) => c.storage.registry.puts),
        rows: perCycle(cycles, (c) => c.storage.registry.rows),
        deletes: perCycle(cycles, (c) => c.storage.registry.deletes),
        gets: perCycle(cycles, (c) => c.storage.registry.gets),
      },
    },
    posts: perCycle(cycles, (c) => c.report.posts),
    slackPosts: perCycle(cycles, (c) => c.slackPosts),
    pollWallMs: stats(polls),
    registryCallWallMs: stats(registryCalls),
    /** Wall seconds the objects were busy per cycle (every DO call's wall time, summed). */
    objectWallSecondsPerCycle:
      sumOf(cycles, (c) =>
        Object.values(c.doWall)
          .flat()
          .reduce((a, b) => a + b, 0),
      ) /
      cycles.length /
      1000,
    cycleWallMs: stats(cycles.map((c) => c.wallMs)),
    n,
  };
}

for (const n of SIZES) {
  it(`idle cycle cost with ${n} subscriptions`, async () => {
    const apiKey = await newOrg();
    const org = emulator.org(apiKey);
    const bot = createBot({ apiKey });
    const teamId = await bot.team();
    const tests = await mapLimit(
      Array.from({ length: n }, (_, i) => i),
      4,
      async (i) => {
        const test = await org.addTest(`bench ${i}`);
        await org.addRun(test.id, "passed");
        return test.id;
      },
    );
    const refs: SubscriptionRef[] = tests.map((id, i) => ({
      teamId,
      channelId: CHANNELS[i % CHANNELS.length] as string,
      kind: "test",
      id,
    }));
    await mapLimit(refs, 4, async (ref) => {
      const res = await bot.command("/decipher", `subscribe test ${ref.id}`, { channelId: ref.channelId });
      if (res.status !== 200) throw new Error(`subscribe ${ref.id} answered ${res.status}`);
    });
    // Warm-up: the first polls anchor on the baseline and may store it once.
    await measuredCycle(bot, apiKey);
    await measuredCycle(bot, apiKey);
    await mapLimit(refs, 8, (ref) =>
      instrument(
        env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(objectNames.subscription(ref))),
        "subscriptions",
      ),
    );
    await instrument(env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry(teamId))), "registry");
    await instrument(env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registryDirectory())), "registry");
    await emulator.org(apiKey).clearRequests();

    const idle: Cycle[] = [];
    for (let i = 0; i < IDLE_CYCLES; i++) idle.push(await measuredCycle(bot, apiKey));

    // For comparison: one cycle in which a tenth of the tests fail (a first alert each).
    await mapLimit(
      tests.filter((_, i) => i % 10 === 0),
      4,
      (id) => org.addRun(id, "failed"),
    );
    const alert = await measuredCycle(bot, apiKey);

    const out = { kind: "poll-cost-objects", n, idle: summarize(n, idle), alert: summarize(n, [alert]) };
    console.log(`BENCH_JSON ${JSON.stringify(out)}`);
  }, 600_000);
}
