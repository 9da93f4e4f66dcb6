import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import {
  callInvocations,
  countedEnv,
  countFetches,
  countObject,
  invocation,
  runAlarm,
  type StubSeen,
  snapshot,
} from "../../bench/day/counting.ts";
import { minus } from "../../bench/day/counting-types.ts";
import { installSimClock, setSimTime, simTime } from "../../bench/day/sim-clock.ts";
import { createBot, emulator, newOrg } from "../../dev/in-workerd/bot.ts";
import { IDLE_POLL_MS, leaseRenewDue } from "../../src/model/poll-clock.ts";
import { registryShard, subscriptionStub } from "../helpers/cases.ts";

// `npm run bench:day` (bench/day/day.bench.ts) is only as true as its counting: these hold the
// counting of one subscription's polls to what a poll is known to cost.

const undo: Array<() => void> = [];
afterEach(() => {
  for (const f of undo.splice(0)) f();
});

async function countedSubscription() {
  undo.push(installSimClock(Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000));
  const counted = new Set<string>();
  const seen: StubSeen = async (kind, ns, id) => {
    if (counted.has(id.toString())) return;
    counted.add(id.toString());
    await countObject(ns.get(id), kind, seen, () => {});
  };
  const bindings = { SUBSCRIPTIONS: env.SUBSCRIPTIONS, CHANNELS: env.CHANNELS, REGISTRY: env.REGISTRY };
  const apiKey = await newOrg();
  const bot = createBot({
    apiKey,
    env: { POLL_CLOCK: "alarms", ...(countedEnv(bindings, seen) as unknown as Record<string, string>) },
  });
  const org = emulator.org(apiKey);
  const test = await org.addTest(`Counted ${crypto.randomUUID().slice(0, 6)}`);
  await bot.command("/decipher", `subscribe test ${test.id}`);
  const stub = await subscriptionStub(bot, "test", test.id);
  const clock = await registryShard(bot);
  const name = `${await bot.team()}:C0ALERTS:test:${test.id}`;
  undo.push(countFetches(env.DECIPHER_API_URL as string, env.SLACK_API_URL as string, () => {}));
  /**
   * One poll, `afterMs` after the previous, and what it added to the counts: the first by the
   * object's own alarm (armed by subscribing), the others by its team's clock.
   */
  const poll = async (afterMs: number) => {
    setSimTime(simTime() + afterMs);
    const before = snapshot();
    const own = await runInDurableObject(stub, (_i, state) => state.storage.getAlarm());
    const r = await (own !== null
      ? invocation("alarm subscriptions", () => runAlarm(stub))
      : invocation("alarm registry", () => runAlarm(clock)));
    return { ...r, added: minus(snapshot(), before) };
  };
  return { org, test, name, poll };
}

describe("the simulated day's counting", () => {
  it("one idle poll of a team's one subscription is its team's alarm and its call, one row written (the clock's next tick) and one vendor read", async () => {
    const { name, poll } = await countedSubscription();
    // The first poll after subscribing reports to the registry once; then a minute to a poll
    // that renews no lease (the renewal is due once every 5 minutes).
    await poll(1_000);
    while (leaseRenewDue(name, simTime() + IDLE_POLL_MS, IDLE_POLL_MS)) await poll(IDLE_POLL_MS);
    const { result, added, external } = await poll(IDLE_POLL_MS);
    expect(result).toBe(true);
    expect(added.doRequests).toEqual({ "alarm registry": 1, "subscriptions.tick": 1 });
    expect(added.rowsWritten).toEqual({ alarms: 1, sql: 0, storageApi: 0 });
    expect(added.rowsRead.sql + added.rowsRead.storageApi).toBeGreaterThan(0);
    expect(added.vendor).toBe(1);
    // The read is the subscription's own invocation's (the tick's call), not the clock's.
    expect(external).toBe(0);
    expect(callInvocations()["subscriptions.tick"]?.maxExternal, JSON.stringify(callInvocations())).toBe(1);
    expect(added.kv).toEqual({ reads: 0, writes: 0, deletes: 0, lists: 0 });
  });

  it("the poll that renews the lease adds the registry's request; a run first seen running adds its ledger row", async () => {
    const { org, test, name, poll } = await countedSubscription();
    await poll(1_000);
    while (!leaseRenewDue(name, simTime() + IDLE_POLL_MS, IDLE_POLL_MS)) await poll(IDLE_POLL_MS);
    const renewing = await poll(IDLE_POLL_MS);
    expect(renewing.added.doRequests).toEqual({
      "alarm registry": 1,
      "subscriptions.tick": 1,
      "registry.report": 1,
    });
    // The tick's call only: the report is made by the subscription's poll, in its own invocation.
    expect(renewing.internal).toBe(1);

    while (leaseRenewDue(name, simTime() + IDLE_POLL_MS, IDLE_POLL_MS)) await poll(IDLE_POLL_MS);
    await org.addRun(test.id, "running", { createdAt: new Date(simTime()).toISOString() });
    const sighting = await poll(IDLE_POLL_MS);
    expect(sighting.added.rowsWritten.sql).toBeGreaterThan(0);
    // The team clock's next tick, and its own alarm 10 s on for the running run.
    expect(sighting.added.rowsWritten.alarms).toBe(2);
    expect(sighting.added.vendor).toBeGreaterThanOrEqual(1);
  });
});
