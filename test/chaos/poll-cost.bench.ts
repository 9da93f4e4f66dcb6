import { inject, it } from "vitest";
import { CHUNK_SIZE, type CycleReport, runPollCycle } from "../../src/alerts/poll-cycle.ts";
import { createDeps } from "../../src/deps.ts";
import { readConfig } from "../../src/env.ts";
import { mapLimit } from "../../src/util/map-limit.ts";
import { type Bot, createBot, newOrg, ordinaryNow } from "../helpers/bot.ts";
import { emulatorOrg } from "../helpers/emulator.ts";
import { createTests, deliver, recordingQueue, resetVendorCounts, seedTestSubscriptions } from "./fleet.ts";

/**
 * Cost of one poll cycle against N subscriptions, counted where it can be counted honestly:
 * KV operations by the harness's counting KV, vendor requests by the emulator, Slack calls by
 * the stand-in's call log, queue messages by a recording queue. Run by `npm run bench`
 * (vitest.bench.config.ts); prints one `BENCH_JSON` line per scenario for bench/run.ts.
 *
 * Invocations: the cron polls the first chunk and enqueues the rest; the consumer gets
 * batches of `max_batch_size` = 5 messages (wrangler.toml). Subrequests per invocation =
 * vendor requests + Slack calls made in it (KV is not a subrequest).
 */

const SIZES = ((inject as (key: string) => unknown)("benchSizes") as number[] | undefined) ?? [
  1, 10, 100, 1000,
];
// wrangler.toml [[queues.consumers]] max_batch_size: one chunk per consumer invocation.
const QUEUE_BATCH = 1;

type Counts = { vendor: number; kvReads: number; kvWrites: number; kvDeletes: number; slack: number };

async function snapshot(bot: Bot, apiKey: string): Promise<Counts> {
  const vendor = (await emulatorOrg(apiKey).requests()).total;
  const slack = (await bot.slackCalls()).length;
  return { vendor, kvReads: bot.kv.reads, kvWrites: bot.kv.writes, kvDeletes: bot.kv.deletes, slack };
}

const diff = (a: Counts, b: Counts): Counts => ({
  vendor: b.vendor - a.vendor,
  kvReads: b.kvReads - a.kvReads,
  kvWrites: b.kvWrites - a.kvWrites,
  kvDeletes: b.kvDeletes - a.kvDeletes,
  slack: b.slack - a.slack,
});

/** One cycle: the cron invocation, then every queued chunk through the consumer. */
async function measuredCycle(bot: Bot, apiKey: string, rq: ReturnType<typeof recordingQueue>) {
  const deps = createDeps(readConfig(bot.env as never), bot.env.STATE);
  const start = Date.now();
  const before = await snapshot(bot, apiKey);
  const report: CycleReport = await runPollCycle(deps, { now: ordinaryNow(), queue: rq.queue });
  const afterCron = await snapshot(bot, apiKey);
  const cronCost = diff(before, afterCron);
  const chunks = rq.take();
  let maxSubrequests = cronCost.vendor + cronCost.slack;
  let invocations = 1;
  let last = afterCron;
  await deliver(bot, chunks, QUEUE_BATCH, async () => {
    const now = await snapshot(bot, apiKey);
    const d = diff(last, now);
    maxSubrequests = Math.max(maxSubrequests, d.vendor + d.slack);
    invocations++;
    last = now;
  });
  const wallMs = Date.now() - start;
  const total = diff(before, await snapshot(bot, apiKey));
  // The snapshots themselves go through the emulator's control API and the stand-in's
  // inspection API, which count in neither log.
  return { report, total, queueMessages: chunks.length, invocations, maxSubrequests, wallMs };
}

for (const n of SIZES) {
  it(`poll cycle cost with ${n} subscriptions`, async () => {
    const apiKey = await newOrg();
    const rq = recordingQueue();
    const bot = createBot({ apiKey, queue: rq.queue });
    const testIds = await createTests(apiKey, n);
    await seedTestSubscriptions(bot.env.STATE, apiKey, testIds);
    await resetVendorCounts(apiKey);

    // Warm-up cycle: absorbs the passed run each test got (first poll anchors on it).
    await measuredCycle(bot, apiKey, rq);
    const idle = await measuredCycle(bot, apiKey, rq);
    const idle2 = await measuredCycle(bot, apiKey, rq);

    // Changes: 10 % of the tests fail (first failure: one post each).
    const org = emulatorOrg(apiKey);
    const someIds = testIds.filter((_, i) => i % 10 === 0);
    await mapLimit(someIds, 8, (id) => org.addRun(id, "failed"));
    const changed10 = await measuredCycle(bot, apiKey, rq);
    // Worst case per subscription: every test fails again (thread reply + parent edit).
    await mapLimit(testIds, 8, (id) => org.addRun(id, "failed"));
    const changedAll = await measuredCycle(bot, apiKey, rq);
    const after = await measuredCycle(bot, apiKey, rq);

    const out = {
      n,
      chunkSize: CHUNK_SIZE,
      queueBatch: QUEUE_BATCH,
      idle,
      idle2,
      changed10,
      changedAll,
      after,
    };
    console.log(`BENCH_JSON ${JSON.stringify({ kind: "poll-cost", ...out })}`);
  }, 600_000);
}
