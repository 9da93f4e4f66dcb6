import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EVENT_ID_TTL_MS, type SlackEventGate } from "../../../src/objects/slack-event-gate.ts";

const gate = () => {
  const namespace = env.SLACK_EVENT_GATE as DurableObjectNamespace<SlackEventGate>;
  return namespace.get(namespace.idFromName(`team:T${crypto.randomUUID()}`));
};

describe("SlackEventGate", () => {
  it("says first exactly once per event id, until the id has expired", async () => {
    const stub = gate();
    const at = Date.now();
    expect(await stub.firstTime("Ev1", at)).toBe(true);
    expect(await stub.firstTime("Ev1", at + 1000)).toBe(false);
    expect(await stub.firstTime("Ev2", at)).toBe(true);
    expect(await stub.firstTime("Ev1", at + EVENT_ID_TTL_MS + 1)).toBe(true);
  });

  it("forgets an id on request, so a retry may handle it", async () => {
    const stub = gate();
    expect(await stub.firstTime("Ev1")).toBe(true);
    await stub.forget("Ev1");
    expect(await stub.firstTime("Ev1")).toBe(true);
  });

  it("caches a load for the TTL, null included, and shares a load in flight", async () => {
    const stub = gate();
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return loads % 2 === 1 ? null : "x";
    };
    const [a, b] = await Promise.all([stub.cached("k", load), stub.cached("k", load)]);
    expect([a, b, loads]).toEqual([null, null, 1]);
    expect(await stub.cached("k", load)).toBeNull();
    expect(loads).toBe(1);
    expect(await stub.cached("other", load, 0)).toBe("x");
    expect(await stub.cached("other", load, 0)).toBeNull();
    expect(loads).toBe(3);
  });

  it("prunes expired rows on its alarm and stops rescheduling once empty", async () => {
    const stub = gate();
    await stub.firstTime("EvOld", Date.now() - 2 * EVENT_ID_TTL_MS);
    await stub.homePublished("U0ALICE", "h", Date.now() - 3 * 24 * 60 * 60 * 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await runInDurableObject(stub, async (_instance, state) => ({
      events: state.storage.sql.exec("SELECT COUNT(*) AS n FROM events").one().n,
      homes: state.storage.sql.exec("SELECT COUNT(*) AS n FROM home_views").one().n,
      alarm: await state.storage.getAlarm(),
    }));
    expect(left).toEqual({ events: 0, homes: 0, alarm: null });
  });

  it("remembers the Home hash per user", async () => {
    const stub = gate();
    expect(await stub.homeUnchanged("U0ALICE", "h1")).toBe(false);
    await stub.homePublished("U0ALICE", "h1");
    expect(await stub.homeUnchanged("U0ALICE", "h1")).toBe(true);
    expect(await stub.homeUnchanged("U0ALICE", "h2")).toBe(false);
    expect(await stub.homeUnchanged("U0BOB", "h1")).toBe(false);
  });
});
