import { runInDurableObject } from "cloudflare:test";
import { AsyncLocalStorage } from "node:async_hooks";
import { countingKv } from "../../dev/in-workerd/bot.ts";
import { type Tally, zeroTally } from "./counting-types.ts";

export type { Tally } from "./counting-types.ts";

/**
 * Counts every billable operation of the Worker and its Durable Objects where the code meets the
 * platform (`npm run bench:day`, bench/day/day.bench.ts; its check: test/bench/day-counting.test.ts).
 * Nothing is derived from reading the code:
 * - Durable Object requests: each alarm the harness runs, and each method call on a stub got from
 *   a counted namespace (one RPC session each, Cloudflare's "Durable Objects pricing");
 * - rows written: each `setAlarm` / `deleteAlarm` (one row each), each SQL statement's
 *   `rowsWritten`, each key `put` or `delete` through the storage API;
 * - rows read: each SQL statement's `rowsRead`, each key `get` and each key a `list` returned;
 * - Workers KV reads, writes, deletes and lists;
 * - vendor (Decipher) and Slack requests: each `fetch` to their base URLs;
 * - per invocation (an alarm, a cron, a call into an object): its internal subrequests (Durable
 *   Object calls and KV operations) and external ones (fetches). A call into an object is that
 *   object's own invocation, with its own budget, as on the platform (docs/cloudflare-limits.md):
 *   what the callee does (work it hands to `waitUntil` included) is its own, not its caller's.
 * Objects are counted by wrapping, in place, each live instance's `ctx.storage` and its `env`
 * bindings (as bench/poll-cost.bench.ts does), so the code under test is not changed.
 */

/** The running totals; the harness takes snapshots of them. */
export const tally: Tally = zeroTally();

type Invocation = { internal: number; external: number };
/** What the invocation the harness is running now has made so far. */
let current: Invocation | null = null;
/** The call into an object whose code is running (each method call runs in its own record). */
const calls = new AsyncLocalStorage<Invocation>();
const here = (): Invocation | null => calls.getStore() ?? current;
const internal = () => {
  const inv = here();
  if (inv) inv.internal++;
};
/** Each call into a counted object, by `kind.method`: its own subrequests. */
const callRecords: Record<string, Invocation[]> = {};
/**
 * Calls made through a counted stub and not yet entered, by `object id.method`: a method entered
 * without one is the object calling itself (its alarm calling `wake`), part of the same invocation.
 */
const pendingCalls = new Map<string, number>();
const callKey = (id: { toString(): string }, method: string) => `${id.toString()}.${method}`;

/** The calls into objects as invocations: how many, and the most subrequests one made. */
export function callInvocations(): Record<
  string,
  { count: number; maxInternal: number; maxExternal: number }
> {
  return Object.fromEntries(
    Object.entries(callRecords).map(([key, records]) => [
      key,
      {
        count: records.length,
        maxInternal: Math.max(...records.map((r) => r.internal)),
        maxExternal: Math.max(...records.map((r) => r.external)),
      },
    ]),
  );
}

const patchedClasses = new WeakSet<object>();
/**
 * Runs each public method of the object's class in its own record (RPC finds methods on the
 * class, so the class is patched, once); its alarm is the harness's own invocation.
 */
function countCalls(instance: object, kind: string): void {
  const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
  if (patchedClasses.has(proto)) return;
  patchedClasses.add(proto);
  for (const name of Object.getOwnPropertyNames(proto)) {
    const method = Object.getOwnPropertyDescriptor(proto, name)?.value;
    if (name === "constructor" || name === "alarm" || typeof method !== "function") continue;
    const key = `${kind}.${name}`;
    proto[name] = function (this: { ctx?: DurableObjectState }, ...args: unknown[]) {
      const run = () => (method as (...a: unknown[]) => unknown).apply(this, args);
      const pending = this.ctx ? callKey(this.ctx.id, name) : "";
      const waiting = pendingCalls.get(pending) ?? 0;
      if (waiting === 0) return run();
      if (waiting === 1) pendingCalls.delete(pending);
      else pendingCalls.set(pending, waiting - 1);
      const mine: Invocation = { internal: 0, external: 0 };
      const records = callRecords[key] ?? [];
      callRecords[key] = records;
      records.push(mine);
      return calls.run(mine, run);
    };
  }
}

/**
 * Calls and fetches an invocation started that have not answered yet: work it left running
 * after it returned (an object's "told outside the queue", `waitUntil`) is still its own, and
 * on the platform it ends within milliseconds of wall time, so the simulated clock waits for it.
 */
let inFlight = 0;
function tracked<T>(p: Promise<T>): Promise<T> {
  if (!current) return p;
  inFlight++;
  return p.finally(() => {
    inFlight--;
  });
}

/** How long the harness waits for an invocation's leftover work before it gives up (wall ms). */
const SETTLE_BOUND_MS = 30_000;

async function settled(): Promise<void> {
  const bound = performance.now() + SETTLE_BOUND_MS;
  while (inFlight > 0 && performance.now() < bound) await new Promise((r) => setTimeout(r, 1));
}

/** SQL cursors not yet added up: their row counts are final once the statement was read. */
let cursors: Array<{
  kind: string;
  what: string;
  cursor: SqlStorageCursor<Record<string, SqlStorageValue>>;
}> = [];

/** A statement by its first words, a key by its name up to its first separator: what wrote a row. */
const statementOf = (query: unknown) =>
  String(query).replace(/\s+/g, " ").trim().split(" (")[0]?.slice(0, 40) ?? "";
const keyOf = (key: string) => key.split(/[:/]/)[0] ?? key;

/** Rows written, also by the kind of object that wrote them and by what wrote them. */
function wrote(kind: string, rows: number, meter: keyof Tally["rowsWritten"], what: string) {
  if (rows === 0) return;
  tally.rowsWritten[meter] += rows;
  tally.rowsWrittenBy[kind] = (tally.rowsWrittenBy[kind] ?? 0) + rows;
  const how = `${kind}: ${what}`;
  tally.rowsWrittenHow[how] = (tally.rowsWrittenHow[how] ?? 0) + rows;
}

/** Adds up the SQL statements run so far (their rows read and written). */
export function settleCursors(): void {
  for (const { kind, what, cursor } of cursors) {
    tally.rowsRead.sql += cursor.rowsRead;
    wrote(kind, cursor.rowsWritten, "sql", what);
  }
  cursors = [];
}

export function snapshot(): Tally {
  settleCursors();
  return structuredClone(tally);
}

/**
 * One invocation the harness makes (an alarm it runs, a cron): counted as a Durable Object
 * request (`request`, e.g. "alarm subscription") or a Worker request, and its subrequests kept.
 */
export async function invocation<T>(
  request: string,
  run: () => Promise<T>,
): Promise<{ result: T; internal: number; external: number; wallMs: number }> {
  if (request === "worker") tally.workerRequests++;
  else tally.doRequests[request] = (tally.doRequests[request] ?? 0) + 1;
  const mine: Invocation = { internal: 0, external: 0 };
  current = mine;
  const start = performance.now();
  try {
    const result = await run();
    const wallMs = performance.now() - start;
    await settled();
    return { result, ...mine, wallMs };
  } finally {
    current = null;
    settleCursors();
  }
}

/** Told of every stub a counted namespace hands out, so the harness can count that object too. */
export type StubSeen = (kind: string, ns: DurableObjectNamespace, id: DurableObjectId) => Promise<void>;

function countedStub<T extends object>(
  stub: T,
  kind: string,
  seen: () => Promise<void>,
  id: DurableObjectId,
): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof prop !== "string" || prop === "then" || typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        await seen();
        const key = `${kind}.${prop}`;
        tally.doRequests[key] = (tally.doRequests[key] ?? 0) + 1;
        internal();
        const pending = callKey(id, prop);
        pendingCalls.set(pending, (pendingCalls.get(pending) ?? 0) + 1);
        return tracked(Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
      };
    },
  });
}

/** A namespace whose stubs' method calls are counted (each one billed Durable Object request). */
export function countedNamespace(
  ns: DurableObjectNamespace,
  kind: string,
  seen: StubSeen,
): DurableObjectNamespace {
  return {
    idFromName: (name: string) => ns.idFromName(name),
    get: (id: DurableObjectId) => countedStub(ns.get(id), kind, () => seen(kind, ns, id), id),
  } as unknown as DurableObjectNamespace;
}

/** A Workers KV binding whose operations are counted (each also one internal subrequest). */
export function countedKv(kv: KVNamespace): KVNamespace {
  const counts = new Proxy(tally.kv, {
    set(target, key, value) {
      internal();
      return Reflect.set(target, key, value);
    },
  });
  return countingKv(kv, counts);
}

/** The bindings of an env with every Durable Object namespace and KV binding counted. */
export function countedEnv<E extends Record<string, unknown>>(env: E, seen: StubSeen): E {
  const out: Record<string, unknown> = { ...env };
  for (const [name, value] of Object.entries(env)) {
    if (name === "STATE") out[name] = countedKv(value as KVNamespace);
    else if (value && typeof value === "object" && "idFromName" in value && "get" in value)
      out[name] = countedNamespace(value as DurableObjectNamespace, name.toLowerCase(), seen);
  }
  return out as E;
}

const keysOf = (arg: unknown) => keyNames(arg).length;
const keyNames = (arg: unknown): string[] =>
  typeof arg === "string" ? [arg] : Array.isArray(arg) ? (arg as string[]) : Object.keys(arg as object);

/** Wraps one storage object in place: rows read and written, and the alarms it sets. */
function countStorage(
  storage: DurableObjectStorage,
  kind: string,
  onAlarm: (at: number | null) => void,
): void {
  const s = storage as unknown as Record<string, (...a: unknown[]) => unknown>;
  const wrap = (name: string, after: (args: unknown[], result: unknown) => unknown) => {
    const real = (s[name] as (...a: unknown[]) => unknown).bind(storage);
    s[name] = (...args: unknown[]) => after(args, real(...args));
  };
  wrap("get", (args, result) => {
    tally.rowsRead.storageApi += keysOf(args[0]);
    return result;
  });
  wrap("list", async (_args, result) => {
    const map = (await result) as Map<string, unknown>;
    tally.rowsRead.storageApi += map.size;
    return map;
  });
  wrap("put", (args, result) => {
    for (const key of keyNames(args[0])) wrote(kind, 1, "storageApi", `put ${keyOf(key)}`);
    return result;
  });
  wrap("delete", (args, result) => {
    for (const key of keyNames(args[0])) wrote(kind, 1, "storageApi", `delete ${keyOf(key)}`);
    return result;
  });
  wrap("setAlarm", (args, result) => {
    wrote(kind, 1, "alarms", "setAlarm");
    const at = args[0];
    onAlarm(typeof at === "number" ? at : (at as Date).getTime());
    return result;
  });
  // The platform clears an alarm as it fires it; the harness does so (runAlarm) without a count.
  (storage as unknown as { __clearFiredAlarm: () => Promise<void> }).__clearFiredAlarm =
    storage.deleteAlarm.bind(storage);
  wrap("deleteAlarm", (_args, result) => {
    wrote(kind, 1, "alarms", "deleteAlarm");
    onAlarm(null);
    return result;
  });
  const sql = storage.sql as unknown as {
    exec: (...a: unknown[]) => SqlStorageCursor<Record<string, SqlStorageValue>>;
  };
  const exec = sql.exec.bind(sql);
  sql.exec = (...args: unknown[]) => {
    const cursor = exec(...args);
    cursors.push({ kind, what: statementOf(args[0]), cursor });
    return cursor;
  };
}

/**
 * Counts one live object from now on (until it is evicted): its storage, and its calls to other
 * objects and KV through its own `env`; its rows written are also counted under `kind`. `onAlarm` hears each alarm it sets or deletes. Returns
 * the alarm it has now.
 */
export async function countObject(
  stub: DurableObjectStub,
  kind: string,
  seen: StubSeen,
  onAlarm: (at: number | null) => void,
): Promise<number | null> {
  return runInDurableObject(stub, async (instance: unknown, state) => {
    const marked = state.storage as unknown as { __dayCounted?: boolean };
    if (!marked.__dayCounted) {
      marked.__dayCounted = true;
      countStorage(state.storage, kind, onAlarm);
      // Work an object hands to `ctx.waitUntil` (a poll its channel asked for) runs at once on
      // the platform: the invocation that started it waits for it, so the simulated clock does.
      const ctx = state as unknown as { waitUntil: (p: Promise<unknown>) => void };
      const waitUntil = ctx.waitUntil.bind(state);
      ctx.waitUntil = (p) => waitUntil(tracked(p));
      const self = instance as { env: Record<string, unknown> };
      self.env = countedEnv(self.env, seen);
      countCalls(self, kind);
    }
    return state.storage.getAlarm();
  });
}

/**
 * Runs an object's alarm as the platform fires it (what runDurableObjectAlarm does, whose own
 * `deleteAlarm` would be counted as the object's write): false when it has none.
 */
export function runAlarm(stub: DurableObjectStub): Promise<boolean> {
  return runInDurableObject(stub, async (instance: unknown, state) => {
    if ((await state.storage.getAlarm()) === null) return false;
    const clear = (state.storage as unknown as { __clearFiredAlarm?: () => Promise<void> }).__clearFiredAlarm;
    await (clear ? clear() : state.storage.deleteAlarm());
    await (instance as { alarm?: () => Promise<void> }).alarm?.();
    return true;
  });
}

/**
 * Counts the `fetch`es made while an invocation runs: to the vendor's API (not its control
 * routes) and to Slack's. `onSlack` sees each Slack call's method and body.
 */
export function countFetches(
  vendorUrl: string,
  slackUrl: string,
  onSlack: (method: string, body: string) => void,
) {
  const real = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const inv = here();
    if (inv) {
      if (url.startsWith(vendorUrl) && !url.includes("/__emulator")) {
        tally.vendor++;
        inv.external++;
      } else if (url.startsWith(slackUrl)) {
        tally.slack++;
        inv.external++;
        onSlack(url.slice(slackUrl.length), typeof init?.body === "string" ? init.body : "");
      } else inv.external++;
    }
    return tracked(real(input, init));
  }) as typeof fetch;
  return () => {
    globalThis.fetch = real;
  };
}
