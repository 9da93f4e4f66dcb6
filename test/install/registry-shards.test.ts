import { env, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Bot } from "../../dev/in-workerd/bot.ts";
import { emulator } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import { runPollCycle } from "../../src/cron.ts";
import { LEASE_MS } from "../../src/model/poll-clock.ts";
import { objectNames } from "../../src/objects/addresses.ts";
import {
  expireLease,
  health,
  registryDirectoryStub,
  registryShard,
  subscriptionStub,
} from "../helpers/cases.ts";
import { envelope, eventsOf } from "../helpers/events.ts";
import { installedWithKey } from "../helpers/installs.ts";

// The registry is one shard per Slack team (src/objects/registry-object.ts), and a directory of
// shards is what the cron reads first and /health adds up (src/objects/registry-directory.ts).

const nameOf = async (bot: Bot, id: number) =>
  objectNames.subscription({ teamId: await bot.team(), channelId: "C0ALERTS", kind: "test", id });

/** The teams the directory lists (every one of them, due or not). */
const directoryTeams = async () =>
  (await registryDirectoryStub().dueShards(new Date().toISOString(), { all: true, limit: 1_000 })).teams;

/** The bot's env with the registry shards the cron asks for recorded by name. */
function recordingShards(bot: Bot, asked: string[]) {
  const ns = env.REGISTRY;
  return {
    ...bot.env,
    REGISTRY: {
      idFromName: (name: string) => {
        asked.push(name);
        return ns.idFromName(name);
      },
      get: (id: DurableObjectId) => ns.get(id),
    },
  } as unknown as typeof bot.env;
}

async function twoTeams() {
  const a = await installedWithKey("acme");
  const b = await installedWithKey("acme");
  await a.bot.command("/decipher", "subscribe test 101");
  await a.bot.command("/decipher", "subscribe test 102");
  await b.bot.command("/decipher", "subscribe test 101");
  return { a, b };
}

describe("one registry shard per Slack team", () => {
  it("one team's subscriptions never reach another team's registry shard", async () => {
    const { a, b } = await twoTeams();
    const shardA = await registryShard(a.bot);
    const shardB = await registryShard(b.bot);
    expect((await shardA.list()).map((e) => e.name).sort()).toEqual([
      await nameOf(a.bot, 101),
      await nameOf(a.bot, 102),
    ]);
    expect((await shardB.list()).map((e) => e.name)).toEqual([await nameOf(b.bot, 101)]);
    expect((await directoryTeams()).sort()).toEqual([await a.bot.team(), await b.bot.team()].sort());
    // Each team's readable index in KV is its own too.
    const keysOf = async (bot: Bot) =>
      JSON.parse((await env.STATE.get(`${await bot.team()}/index:subscriptions`)) ?? "[]") as string[];
    expect(await keysOf(a.bot)).toHaveLength(2);
    expect(await keysOf(b.bot)).toEqual([`${await b.bot.team()}/sub:C0ALERTS:test:101`]);
  });

  it("the watchdog wakes a stopped clock in any team's shard, and calls no other team's", async () => {
    const { a, b } = await twoTeams();
    const config = { ...readConfig(a.bot.env), clock: "alarms" as const };
    // Every lease is alive: the directory names no shard, and the cron calls none.
    const idleAsked: string[] = [];
    const idle = await runPollCycle(recordingShards(a.bot, idleAsked), config, { now: new Date() });
    expect(idle.subscriptions).toBe(0);
    expect(idleAsked.filter((n) => n !== objectNames.registryDirectory())).toEqual([]);

    await expireLease(b.bot, await nameOf(b.bot, 101));
    const orgB = emulator.org(b.apiKey);
    const before = (await orgB.requests()).total;
    const asked: string[] = [];
    const woken = await runPollCycle(recordingShards(a.bot, asked), config, { now: new Date() });
    expect(woken.subscriptions).toBe(1);
    expect(woken.polled).toBe(1);
    expect((await orgB.requests()).total - before).toBe(1);
    expect(asked).toContain(objectNames.registry(await b.bot.team()));
    expect(asked).not.toContain(objectNames.registry(await a.bot.team()));
    // Its lease was renewed by the wake: the next cycle calls no shard again.
    const againAsked: string[] = [];
    const again = await runPollCycle(recordingShards(a.bot, againAsked), config, { now: new Date() });
    expect(again.subscriptions).toBe(0);
    expect(againAsked.filter((n) => n !== objectNames.registryDirectory())).toEqual([]);
    // The wake set the object's own alarm; it is run here rather than left to fire later.
    await runDurableObjectAlarm(await subscriptionStub(b.bot, "test", 101));
  });

  it("/health adds up overdue across shards", async () => {
    const { a, b } = await twoTeams();
    const at = new Date().toISOString();
    const report = async (bot: Bot, id: number, overdue: number) =>
      (await registryShard(bot)).report(
        { name: await nameOf(bot, id), status: "ok", at, erroringSince: null, overdue },
        Date.now() + LEASE_MS,
      );
    await report(a.bot, 101, 2);
    await report(b.bot, 101, 3);
    const body = await health(a.bot);
    expect(body.subscriptions).toBe(3);
    expect(body.overdue).toBe(5);
    expect(body.ok).toBe(false);
    expect(body.problems).toContain("5 failed run(s) seen over 5 minutes ago have not been told");
  });

  it("an uninstall removes the team's shard from the directory, and leaves the other team's", async () => {
    const { a, b } = await twoTeams();
    const teamA = await a.bot.team();
    const ack = await eventsOf(a.bot).send(envelope(teamA, { type: "app_uninstalled" }));
    expect(ack.status).toBe(200);
    expect(await directoryTeams()).toEqual([await b.bot.team()]);
    expect(await (await registryShard(a.bot)).list()).toEqual([]);
    expect((await health(b.bot)).subscriptions).toBe(1);
  });
});
