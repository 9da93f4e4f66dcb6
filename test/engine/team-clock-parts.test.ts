import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Env, readConfig } from "../../src/config.ts";
import { TeamClock, TICK_CALLS_PER_INVOCATION } from "../../src/objects/team-clock.ts";

// A team bigger than one invocation may call ticks in parts (src/objects/team-clock.ts), each
// part's invocation arming the next for now. Here the team's subscriptions are stand-ins that
// count the ticks they are asked; the clock keeps its alarm in a real object's storage.

const IDLE_MS = 60_000;

function countingTeam(size: number) {
  const names = Array.from({ length: size }, (_, i) => `T0PARTS:C0ALERTS:test:${i + 1}`);
  const asked = new Map<string, number>();
  const subscriptions = {
    idFromName: (name: string) => name,
    get: (name: string) => ({
      tick: async () => {
        asked.set(name, (asked.get(name) ?? 0) + 1);
        return IDLE_MS;
      },
    }),
  };
  const teamEnv = { ...env, SUBSCRIPTIONS: subscriptions } as unknown as Env;
  return { names, asked, teamEnv };
}

describe("a team too big for one invocation ticks in parts", () => {
  it("a subscription that makes sure the clock runs between two parts does not put off the rest of the tick", async () => {
    const size = TICK_CALLS_PER_INVOCATION + 200;
    const { names, asked, teamEnv } = countingTeam(size);
    const shard = env.REGISTRY.get(
      env.REGISTRY.idFromName(`registry:T0PARTS${crypto.randomUUID().slice(0, 6)}`),
    );
    await runInDurableObject(shard, async (_i, state) => {
      const clock = new TeamClock(state.storage, () => teamEnv, "registry:T0PARTS");
      const config = readConfig({ ...env, POLL_CLOCK: "alarms" });
      await clock.tick(config, () => names);
      expect(asked.size).toBe(TICK_CALLS_PER_INVOCATION);
      // A test polled by its own alarm (a run running) makes sure its team's clock runs.
      await clock.keep(IDLE_MS);
      // The next part is still due at once, not at the next tick.
      expect((await state.storage.getAlarm()) ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now());
      await clock.tick(config, () => names);
      expect(asked.size).toBe(size);
      expect([...asked.values()].every((n) => n === 1)).toBe(true);
    });
  });

  it("a tick whose next part was lost (its shard emptied mid-tick) is started again by the next subscription polled", async () => {
    const { names, teamEnv } = countingTeam(TICK_CALLS_PER_INVOCATION + 1);
    const shard = env.REGISTRY.get(
      env.REGISTRY.idFromName(`registry:T0LOST${crypto.randomUUID().slice(0, 6)}`),
    );
    await runInDurableObject(shard, async (_i, state) => {
      const clock = new TeamClock(state.storage, () => teamEnv, "registry:T0LOST");
      await clock.tick(readConfig({ ...env, POLL_CLOCK: "alarms" }), () => names);
      await state.storage.deleteAlarm();
      await clock.keep(IDLE_MS);
      expect(await state.storage.getAlarm()).not.toBeNull();
    });
  });
});
