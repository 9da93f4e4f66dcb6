/**
 * `npm run bench`: measures ack latency, CPU per request and per idle poll, the cost of a
 * poll cycle vs subscriptions, the bundle, alert latency, and the same `/sessions` load against
 * a Bolt for JavaScript app (bench/peer/); prints a table and rewrites BENCHMARKS.md.
 * Options (env): BENCH_QUICK=1 (fewer requests, sizes 1,10,100), BENCH_SIZES=1,20,100 (the engine cost sizes),
 * BENCH_NO_WRITE=1 (print only), BENCH_PEERS_ONLY=1 (only the Bolt comparison; print only),
 * BENCH_EDGE_ONLY=1 (only the Slack edge against Bolt and the floor, bench/peer/edge.ts; writes its
 * section), BENCH_BASELINE=<git rev> (the edge comparison also measures the Worker built from it).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { emulatorControl } from "../dev/emulator/control-client.ts";
import { slackAdmin } from "../dev/slack/admin-client.ts";
import { ROOT, type Stack, startStack } from "../dev/stack.ts";
import { buildWorker } from "./build.ts";
import { cpuOf, tickMs } from "./cpu.ts";
import { bin, run } from "./exec.ts";
import { median, runLoad, sleep, summarize } from "./load.ts";
import type { PeerPlan } from "./peer/compare.ts";
import { EDGE_PLAN, edgeBenchmark, writeEdgeSection } from "./peer/edge.ts";
import { renderEdgeSection } from "./peer/edge-report.ts";
import { peerBenchmark } from "./peer/peers.ts";
import { renderPeerTable } from "./peer/report.ts";
import { wranglerProcesses } from "./peer/wrangler-dev.ts";
import { type Facts, HEALTH_FLOOR, renderMarkdown, renderTable } from "./report.ts";
import { commandRequest, type Target, timelineClickRequest } from "./slack-requests.ts";

process.env.WRANGLER_SEND_METRICS = "false";
const QUICK = process.env.BENCH_QUICK === "1";
/** Subscription counts for the engine's cycle cost (bench/poll-cost.ts reads POLL_COST_SIZES). */
const SIZES = process.env.BENCH_SIZES ?? (QUICK ? "1,20" : "1,20,100");
const LOAD_REQUESTS = QUICK ? 100 : 150;
const CPU_REQUESTS = QUICK ? 100 : 150;
const CPU_CYCLES = QUICK ? 60 : 100;
const ALERTS = QUICK ? 4 : 8;
/** The Bolt comparison: rounds × requests per target and concurrency (bench/peer/). */
const PEERS: PeerPlan = {
  cells: [
    { kind: "command", concurrency: 1 },
    { kind: "command", concurrency: 20 },
    { kind: "command", concurrency: 50 },
    { kind: "ack-only", concurrency: 50 },
    { kind: "floor", concurrency: 50 },
  ],
  rounds: 3,
  requestsPerRound: QUICK ? 30 : 50,
};
const PEERS_ONLY = process.env.BENCH_PEERS_ONLY === "1";
const T0 = Date.now();
/** A progress line with the seconds since start, so a slow step shows itself. */
const step = (text: string) => console.log(`bench: ${text} (${Math.round((Date.now() - T0) / 1000)} s)`);

/**
 * The engine's cycle cost (bench/poll-cost.ts, in workerd), which writes its own section
 * (bench/sections/20-engine-cost.md) into BENCHMARKS.md.
 */
async function pollCost(): Promise<void> {
  step("poll-cycle cost of the Durable Object engine (bench/poll-cost.ts) …");
  const res = await run(process.execPath, ["bench/poll-cost.ts"], {
    POLL_COST_WRITE: "1",
    POLL_COST_SIZES: SIZES,
    NO_COLOR: "1",
  });
  if (res.code !== 0) throw new Error(`poll-cost benchmark failed:\n${res.stdout.slice(-3000)}`);
}

async function send(request: Request) {
  const res = await fetch(request, { signal: AbortSignal.timeout(10_000) });
  const body = await res.text();
  if (!res.ok) throw new Error(`bot answered ${res.status}: ${body.slice(0, 200)}`);
  return body;
}

/** Subscribes through the bot and waits until `/decipher list` shows it. */
async function subscribe(t: Target, channel: string, what: string) {
  await send(await commandRequest(t, "/decipher", `subscribe ${what}`, channel));
  const id = what.split(" ")[1] as string;
  for (let i = 0; i < 50; i++) {
    const list = await send(await commandRequest(t, "/decipher", "list", channel));
    if (list.includes(id)) return;
    await sleep(100);
  }
  throw new Error(`subscription ${what} in ${channel} did not appear`);
}

async function firstSessionId(stack: Stack): Promise<string> {
  const res = await fetch(`${stack.emulatorUrl}/api/v1/sessions?userEmail=jane%40acme.com&limit=20`, {
    headers: { authorization: `Bearer ${stack.apiKey}` },
  });
  const body = (await res.json()) as { data: Array<{ id: string; hasTimeline: boolean }> };
  const found = body.data.find((s) => s.hasTimeline) ?? body.data[0];
  if (!found) throw new Error("the emulator has no sessions for jane@acme.com");
  return found.id;
}

const vendorRequests = (stack: Stack): Promise<number> =>
  emulatorControl(stack.emulatorUrl).org(stack.apiKey).requestTotal();

async function postedRun(stack: Stack, runId: number, channel: string): Promise<boolean> {
  const calls = await slackAdmin(stack.slackUrl).calls<{ ok: boolean; params: { channel?: string } }>(
    stack.botToken,
    "chat.postMessage",
  );
  return calls.some(
    (c) => c.ok && c.params.channel === channel && JSON.stringify(c.params).includes(`/runs/${runId}`),
  );
}

async function liveMeasurements(stack: Stack) {
  // The workerd that runs the Worker, not the one running wrangler's dev proxy in front of it.
  const pid = wranglerProcesses(stack).worker;
  const t: Target = stack;
  const sessionId = await firstSessionId(stack);

  // Warm-up: first requests compile and cache (auth.test cache, JIT).
  for (let i = 0; i < 10; i++) {
    await send(await commandRequest(t, "/sessions", "jane@acme.com"));
    await send(await timelineClickRequest(t, sessionId));
  }

  const latency: Facts["latency"] = [];
  for (const concurrency of [1, 20, 50]) {
    // The floor: the same load on /health, which runs no Slack code at all.
    latency.push({
      kind: HEALTH_FLOOR,
      concurrency,
      ...summarize(await runLoad(LOAD_REQUESTS, concurrency, () => new Request(`${stack.botUrl}/health`))),
    });
    await sleep(1000);
    const cmdReqs = await Promise.all(
      Array.from({ length: LOAD_REQUESTS }, () => commandRequest(t, "/sessions", "jane@acme.com")),
    );
    latency.push({
      kind: "/sessions command",
      concurrency,
      ...summarize(await runLoad(LOAD_REQUESTS, concurrency, (i) => cmdReqs[i] as Request)),
    });
    await sleep(1000);
    const clickReqs = await Promise.all(
      Array.from({ length: LOAD_REQUESTS }, () => timelineClickRequest(t, sessionId)),
    );
    latency.push({
      kind: "button click (Timeline)",
      concurrency,
      ...summarize(await runLoad(LOAD_REQUESTS, concurrency, (i) => clickReqs[i] as Request)),
    });
    await sleep(1000);
  }

  // CPU: sequential requests, lazy work (vendor call + response_url) included by waiting for quiet.
  const health = await cpuOf(pid, async () => {
    await runLoad(CPU_REQUESTS, 1, () => new Request(`${stack.botUrl}/health`));
  });
  const cmdReqs = await Promise.all(
    Array.from({ length: CPU_REQUESTS }, () => commandRequest(t, "/sessions", "jane@acme.com")),
  );
  const vendorBefore = await vendorRequests(stack);
  const command = await cpuOf(pid, async () => {
    await runLoad(CPU_REQUESTS, 1, (i) => cmdReqs[i] as Request);
  });
  const lazyVendorCalls = (await vendorRequests(stack)) - vendorBefore;
  const clickReqs = await Promise.all(
    Array.from({ length: CPU_REQUESTS }, () => timelineClickRequest(t, sessionId)),
  );
  const click = await cpuOf(pid, async () => {
    await runLoad(CPU_REQUESTS, 1, (i) => clickReqs[i] as Request);
  });
  const cycles = async () => {
    for (let i = 0; i < CPU_CYCLES; i++) await stack.fireCron();
  };
  const cycle0 = await cpuOf(pid, cycles);
  await subscribe(t, "C0ALERTS", "test 101");
  const cycle1 = await cpuOf(pid, cycles);
  for (const channel of ["C0GENERAL", "C0DEMO"]) await subscribe(t, channel, "test 101");
  for (const channel of ["C0ALERTS", "C0GENERAL", "C0DEMO"]) {
    await subscribe(t, channel, "test 102");
    await subscribe(t, channel, "test 103");
  }
  await subscribe(t, "C0ALERTS", "collection 501");
  await stack.fireCron(); // the first poll after subscribing may move baselines
  const cycle10 = await cpuOf(pid, cycles);
  const cpu: Facts["cpu"] = {
    requests: CPU_REQUESTS,
    cycles: CPU_CYCLES,
    tickMs,
    healthMs: health / CPU_REQUESTS,
    commandMs: command / CPU_REQUESTS,
    clickMs: click / CPU_REQUESTS,
    cycle0Ms: cycle0 / CPU_CYCLES,
    cycle1Ms: cycle1 / CPU_CYCLES,
    cycle10Ms: cycle10 / CPU_CYCLES,
    lazyVendorCalls,
  };

  // Alert latency at a 1-minute cron, time compressed: a failure lands at a random second of
  // the minute (seeded), the wait until the next tick is added arithmetically, and the cycle
  // is fired at once; processing = fire → the post is in the stand-in's log.
  const alerts: Facts["alerts"] = [];
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let i = 0; i < ALERTS; i++) {
    const offsetS = rand() * 60;
    const runId = (await emulatorControl(stack.emulatorUrl).org(stack.apiKey).addRun(101, "failed")).id;
    const fired = performance.now();
    await stack.fireCron();
    let seen = false;
    for (let j = 0; j < 100 && !seen; j++) {
      seen = await postedRun(stack, runId, "C0ALERTS");
      if (!seen) await sleep(50);
    }
    const processingMs = performance.now() - fired;
    alerts.push({ runId, waitMs: (60 - offsetS) * 1000, processingMs, delivered: seen });
    await sleep(1100); // the stand-in throttles chat.postMessage to 1/s per channel, like Slack
  }
  return { latency, cpu, alerts };
}

const startLoad = loadavg();

function machine(): Facts["machine"] {
  const wrangler = JSON.parse(readFileSync(bin("wrangler", "package.json"), "utf8")).version as string;
  let workerd = "?";
  try {
    workerd = JSON.parse(readFileSync(bin("workerd", "package.json"), "utf8")).version as string;
  } catch {
    // not hoisted
  }
  return {
    nproc: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    node: process.version,
    wrangler,
    workerd,
    date: new Date().toISOString(),
    loadAvg: startLoad,
  };
}

/** The Slack edge (bench/peer/edge.ts): its own section, written to bench/sections/ and BENCHMARKS.md. */
async function edge() {
  step("the Slack edge: ours, the baseline, Bolt and the Hono floor (bench/peer/edge.ts) …");
  const section = renderEdgeSection(await edgeBenchmark(EDGE_PLAN, console.log, startLoad));
  console.log(section);
  if (process.env.BENCH_NO_WRITE !== "1") writeEdgeSection(section);
}

async function main() {
  if (process.env.BENCH_EDGE_ONLY === "1") return edge();
  const started = Date.now();
  step("bundle (wrangler deploy --dry-run) …");
  const build = await buildWorker();
  try {
    if (!PEERS_ONLY) await pollCost();
    step("starting the local stack (emulator, Slack stand-in, wrangler dev) …");
    const stack = await startStack({
      ports: { bot: 0, emulator: 0, slack: 0 },
      cronIntervalMs: null,
      quiet: true,
      persistTo: ".wrangler/bench",
    });
    let live: Awaited<ReturnType<typeof liveMeasurements>> | null = null;
    let peers: Facts["peers"];
    try {
      if (!PEERS_ONLY) {
        step("ack latency, CPU, alert latency through wrangler dev …");
        live = await liveMeasurements(stack);
      }
      step("the same /sessions load on wrangler dev, on workerd directly, and on Bolt …");
      peers = await peerBenchmark(stack, build.dir, PEERS);
    } finally {
      await stack.stop();
      rmSync(join(ROOT, ".wrangler/bench"), { recursive: true, force: true });
    }
    if (!live) {
      console.log(renderPeerTable(peers, build));
      return;
    }
    const facts: Facts = {
      machine: machine(),
      quick: QUICK,
      bundle: { rawBytes: build.rawBytes, gzipBytes: build.gzipBytes },
      ...live,
      peers,
      alertMedianMs: median(live.alerts.map((a) => a.waitMs + a.processingMs)),
      elapsedS: Math.round((Date.now() - started) / 1000),
    };
    console.log(renderTable(facts));
    // Before the rewrite below, which takes the sections in bench/sections/ (this one included).
    await edge();
    if (process.env.BENCH_NO_WRITE !== "1") {
      writeFileSync(join(ROOT, "BENCHMARKS.md"), renderMarkdown(facts));
      step("BENCHMARKS.md rewritten");
    }
  } finally {
    build.remove();
  }
}

await main();
