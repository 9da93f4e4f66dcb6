/**
 * The Slack edge against Bolt (BENCHMARKS.md, "The Slack edge"): ours on a bare `workerd
 * serve`, optionally the same before a change (a git revision, BENCH_BASELINE), the Bolt app on
 * Node, and a Hono-only signed-echo Worker on the same workerd as the floor, also answering with
 * ours' help (bench/peer/hono-floor-help.ts). Cold starts, then
 * the load cells with the servers taking turns in every round, then a V8 profile of each of our
 * builds under a burst of help acks. `npm run bench` runs it; alone (print, and write the
 * section with BENCH_WRITE=1):
 *   BENCH_BASELINE=<rev> node bench/peer/edge.ts
 */
import { type Build, buildWorker, buildWorkerAt, type Size } from "../build.ts";
import { writeSection } from "../write-section.ts";
import { bundleBolt } from "./bolt-bundle.ts";
import { spawnBolt, startBolt } from "./bolt-process.ts";
import { coldStarts, type Spawner } from "./cold-start.ts";
import { comparePeers } from "./compare.ts";
import { type EdgeFacts, type EdgePlan, renderEdgeSection } from "./edge-report.ts";
import { bundleHonoEcho } from "./hono-echo-bundle.ts";
import { type ProfileResult, profileWorker } from "./profile.ts";
import type { PeerId, Served } from "./served.ts";
import { startServices } from "./services.ts";
import { spawnWorkerdServe, startWorkerdServe } from "./workerd-serve.ts";

const QUICK = process.env.BENCH_QUICK === "1";

/** BENCH_QUICK=1: two rounds of fewer requests, two cold starts, no profile (a smoke run). */
export const EDGE_PLAN: EdgePlan = {
  cells: [
    // 1,000 a round for the cheap acks: CPU is counted in 10 ms ticks, so a round resolves
    // 0.01 ms per ack, and its p99 is its 10th slowest answer rather than its 2nd.
    { kind: "help", concurrency: 1, requests: QUICK ? 30 : 1000 },
    { kind: "help", concurrency: 10, requests: QUICK ? 50 : 1000 },
    { kind: "help", concurrency: 50, requests: QUICK ? 50 : 1000 },
    // Sustained: enough commands per round that the lazy halves' CPU backs up behind the acks.
    { kind: "command", concurrency: 50, requests: QUICK ? 30 : 200 },
  ],
  rounds: QUICK ? 2 : 7,
  requestsPerRound: QUICK ? 30 : 50,
  coldStarts: QUICK ? 2 : 7,
  baseline: process.env.BENCH_BASELINE || null,
  // At one in flight: the cell whose goal was not met, and the one where per-request work shows.
  profile: QUICK ? null : { concurrency: 1, requests: 600 },
};

export async function edgeBenchmark(
  plan: EdgePlan,
  log: (line: string) => void = console.log,
  loadAvg: number[] = [],
): Promise<EdgeFacts> {
  const started = Date.now();
  const builds: Array<[PeerId, Build]> = [];
  const bolt = await bundleBolt();
  const servers: Served[] = [];
  const services = await startServices();
  try {
    log("edge: building ours, the floor and the Bolt app …");
    builds.push(["workerd-serve", await buildWorker()]);
    if (plan.baseline) builds.push(["workerd-serve-base", await buildWorkerAt(plan.baseline)]);
    builds.push(["hono-floor", await bundleHonoEcho()]);
    builds.push(["hono-floor-help", await bundleHonoEcho("bench/peer/hono-floor-help.ts")]);
    const boltConfig = {
      signingSecret: services.signingSecret,
      botToken: services.botToken,
      slackApiUrl: services.vars.SLACK_API_URL,
      emulatorUrl: services.emulatorUrl,
      apiKey: services.apiKey,
    };

    log(`edge: cold starts (${plan.coldStarts} each, interleaved) …`);
    const spawners: Spawner[] = [
      ...builds.map(([id, b]): Spawner => ({ id, spawn: () => spawnWorkerdServe(b.dir, services.vars) })),
      { id: "bolt", spawn: () => spawnBolt(bolt.file, boltConfig) },
    ];
    const cold = await coldStarts(services, spawners, plan.coldStarts);

    log("edge: load cells …");
    for (const [id, b] of builds) servers.push(await startWorkerdServe(b.dir, services.vars, id));
    servers.push(await startBolt(bolt.file, boltConfig));
    const rows = await comparePeers(services, servers, plan, log);
    for (const s of servers.splice(0)) await s.stop();

    const profiles: Array<[PeerId, ProfileResult]> = [];
    if (plan.profile)
      for (const [id, b] of builds.filter(([id]) => !id.startsWith("hono-floor"))) {
        log(`edge: V8 profile of ${id} …`);
        profiles.push([
          id,
          await profileWorker(
            b.dir,
            services,
            services.vars,
            "help",
            plan.profile.concurrency,
            plan.profile.requests,
          ),
        ]);
      }
    return {
      plan,
      rows,
      cold: [...cold.entries()].map(([id, runs]) => [id, runs.map((c) => c.firstOkMs)]),
      coldUp: [...cold.entries()].map(([id, runs]) => [id, runs.map((c) => c.upMs)]),
      bundles: [
        ...builds.map(([id, b]): [PeerId, Size] => [id, { rawBytes: b.rawBytes, gzipBytes: b.gzipBytes }]),
        ["bolt", { rawBytes: bolt.rawBytes, gzipBytes: bolt.gzipBytes }],
      ],
      profiles,
      elapsedS: Math.round((Date.now() - started) / 1000),
      loadAvg,
    };
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    await services.stop();
    for (const [, b] of builds) b.remove();
    bolt.remove();
  }
}

const START = "<!-- edge:start";
const END = "<!-- edge:end -->";

/** Writes the section to bench/sections/10-edge.md and into BENCHMARKS.md between its markers. */
export function writeEdgeSection(section: string): void {
  writeSection("10-edge.md", START, END, section);
}

if (process.argv[1]?.endsWith("edge.ts")) {
  process.env.WRANGLER_SEND_METRICS = "false";
  const { loadavg } = await import("node:os");
  const facts = await edgeBenchmark(EDGE_PLAN, console.log, loadavg());
  const section = renderEdgeSection(facts);
  console.log(section);
  if (process.env.BENCH_WRITE === "1") writeEdgeSection(section);
}
