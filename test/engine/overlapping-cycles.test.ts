import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type Bot, visibleText } from "../../dev/in-workerd/bot.ts";
import { readConfig } from "../../src/config.ts";
import type { PollMode } from "../../src/engine/poll-context.ts";
import { channelObject, objectNames } from "../../src/objects/addresses.ts";
import { runIdsIn, subscriptionStub } from "../helpers/cases.ts";
import { channelWatching } from "../helpers/emulator.ts";

/**
 * The two passes of one cron cycle, taken apart so two overlapping cycles can interleave in a
 * chosen order: each test's first look (holding new failures), the channel's decision, and the
 * second look that tells what was decided.
 */
function cycle(bot: Bot, testIds: number[], at: Date) {
  const config = readConfig(bot.env);
  const poll = async (id: number, mode: PollMode) => {
    const stub = await subscriptionStub(bot, "test", id);
    const name = objectNames.subscription({
      teamId: await bot.team(),
      channelId: "C0ALERTS",
      kind: "test",
      id,
    });
    return stub.poll(name, at.toISOString(), config, mode);
  };
  return {
    hold: () => Promise.all(testIds.map((id) => poll(id, { hold: true }))),
    async decideAndTell(held: Awaited<ReturnType<typeof poll>>[]) {
      const items = held.flatMap((r) => (r.held ? [r.held] : []));
      const channel = channelObject(env as never, objectNames.channel(await bot.team(), "C0ALERTS"));
      const decided = await channel.postOutage("C0ALERTS", items, testIds.length, config);
      const mode: PollMode = decided.ts ? { group: { ts: decided.ts, runIds: decided.named } } : {};
      for (const item of items) if (!decided.waiting.includes(item.runId)) await poll(item.testId, mode);
      return decided;
    },
  };
}

const timesShown = async (bot: Bot, runId: number) =>
  (await bot.posted()).filter((m) => runIdsIn(visibleText(m)).includes(runId)).length;

describe("overlapping cycles and the outage decision", () => {
  it("a failure told alone after Slack refused the outage message is never named by an overlapping cycle's outage message", async () => {
    const { bot, org, tests } = await channelWatching(3);
    const ids = tests.map((t) => t.id);
    const runs = [];
    for (const id of ids) runs.push(await org.addRun(id, "failed"));
    const t0 = Date.now();
    const a = cycle(bot, ids, new Date(t0));
    const b = cycle(bot, ids, new Date(t0 + 1));
    const heldByA = await a.hold();
    const heldByB = await b.hold();
    expect(heldByA.filter((r) => r.held)).toHaveLength(3);
    expect(heldByB.filter((r) => r.held)).toHaveLength(3);

    // The later cycle decides first, and Slack says no to its outage message: each test alone.
    await bot.slackFault("chat.postMessage", "429", 1, { retryAfter: 30 });
    expect((await b.decideAndTell(heldByB)).ts).toBeNull();
    // The earlier cycle decides next, with the same three failures.
    await a.decideAndTell(heldByA);

    for (const run of runs) expect(await timesShown(bot, run.id), `run ${run.id}`).toBe(1);
  });
});
