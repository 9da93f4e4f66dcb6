/**
 * `npm run bench:poll-cost`: what an idle poll cycle of the Durable Object engine costs, per
 * cycle and per subscription, and what that makes a day for 20 subscriptions on the Free plan,
 * next to the KV-lease engine it replaced. Runs bench/poll-cost.bench.ts in workerd
 * (bench/poll-cost.config.ts) and prints a Markdown section. POLL_COST_SIZES=1,20,100 picks
 * the sizes; POLL_COST_WRITE=1 also writes it to bench/sections/20-engine-cost.md (which
 * bench/report.ts appends whenever it rewrites BENCHMARKS.md) and replaces it in BENCHMARKS.md
 * (between its `poll-cost` markers), leaving the rest of the file alone.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "../dev/stack.ts";
import { run, VITEST_RUN_BOUND_MS } from "./exec.ts";
import { writeSection } from "./write-section.ts";

process.env.WRANGLER_SEND_METRICS = "false";

type Storage = { puts: number; rows: number; deletes: number; gets: number };
type Stats = { n: number; mean: number; p50: number; p95: number; sum: number };
type Summary = {
  n: number;
  cycles: number;
  vendorRequests: number;
  doRequests: number;
  doRequestsByMethod: Record<string, number>;
  kvWrites: { reported: number; objects: number; worker: number };
  storage: { reported: number; subscriptions: Storage; registry: Storage };
  posts: number;
  slackPosts: number;
  pollWallMs: Stats;
  registryCallWallMs: Stats;
  objectWallSecondsPerCycle: number;
  cycleWallMs: Stats;
};
type Row = { kind: "poll-cost-objects"; n: number; idle: Summary; alert: Summary };

const CYCLES_PER_DAY = 1440;
const DAY_SUBS = 20;
const GB_PER_OBJECT = 0.128;
const FREE = {
  doRequests: 100_000,
  gbSeconds: 13_000,
  kvWrites: 1_000,
  rowsWritten: 100_000,
  rowsRead: 5_000_000,
};

/**
 * The KV-lease engine, from BENCHMARKS.md of 2026-11-21 (section 3, measured at
 * commit d40eb50): per idle subscription 1 vendor request, 1 KV read (+2 per cycle), 0 KV writes;
 * per alert 2 KV writes and 1 delete; idle cycle wall 28 ms for 10 subscriptions, 189 ms for 100.
 */
const BEFORE = {
  vendorPerSub: 1,
  kvReadsPerSub: 1,
  kvReadsFixed: 2,
  kvWritesIdle: 0,
  kvWritesPerAlert: 2,
  kvDeletesPerAlert: 1,
  wall10: 28,
  wall100: 189,
};

const fmt = (v: number, digits = 0) =>
  v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ratio = (v: number, limit: number) => `${fmt((100 * v) / limit, 1)} %`;

function render(rows: Row[], seconds: number): string {
  const out: string[] = [];
  const load = loadavg().map((v) => v.toFixed(2));
  out.push(
    "<!-- poll-cost:start (written by `npm run bench:poll-cost` with POLL_COST_WRITE=1; rerun rather than edit) -->",
    "## Alerting engine: cost of a cycle, before and after",
    "",
    `Measured ${new Date().toISOString()} on ${cpus().length} cores (load ${load.join(" / ")}), ${fmt(seconds)} s, by \`npm run bench:poll-cost\` (bench/poll-cost.ts → bench/poll-cost.bench.ts in workerd, emulator and Slack stand-in on loopback). Each size: N test subscriptions made with \`/decipher subscribe\` over three channels, two warm-up cycles, then ${rows[0]?.idle.cycles ?? 10} idle cycles through \`runPollCycle\` (averaged), then one cycle in which a tenth of the tests fail. The cycles are the cron polling every subscription (\`POLL_CLOCK=cron\`, what "Poll now" and the tests use); deployed, each object polls on its own alarm at the same cost per poll, and the cron is a watchdog: see "Clock" for that mode's cron and a day's requests. Counted, not derived: vendor requests by the emulator; Durable Object requests (each RPC method call on a stub is one billed request) and their wall time by wrapping the namespaces the cycle uses; storage \`put\`s (rows = keys written), \`delete\`s and \`get\`s by wrapping each live object's \`ctx.storage\`; KV writes three ways (the objects' own binding wrapped in place, the worker's counting KV, and \`CycleReport.writes.kv\`).`,
    "",
    "### After (one Durable Object per subscription), per idle cycle",
    "",
    "| subs | vendor requests | DO requests (polls + registry) | KV writes (objects / worker / report) | DO storage writes: subscription objects (report) | registry puts (rows) | DO storage reads (gets) | wall ms per object poll (mean / p50 / p95) | wall ms per cycle (p50) |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const { n, idle: i } of rows) {
    const regCalls = Object.entries(i.doRequestsByMethod)
      .filter(([k]) => k.startsWith("registry."))
      .reduce((a, [, v]) => a + v, 0);
    out.push(
      `| ${n} | ${fmt(i.vendorRequests, 1)} (${fmt(i.vendorRequests / n, 2)}/sub) | ${fmt(i.doRequests, 1)} (${fmt(i.doRequests - regCalls, 1)} + ${fmt(regCalls, 1)}) | ${fmt(i.kvWrites.objects, 1)} / ${fmt(i.kvWrites.worker, 1)} / ${fmt(i.kvWrites.reported, 1)} | ${fmt(i.storage.subscriptions.puts + i.storage.subscriptions.deletes, 1)} (${fmt(i.storage.reported, 1)}) | ${fmt(i.storage.registry.puts, 1)} (${fmt(i.storage.registry.rows, 1)}) | ${fmt(i.storage.subscriptions.gets + i.storage.registry.gets, 1)} | ${fmt(i.pollWallMs.mean, 1)} / ${i.pollWallMs.p50} / ${i.pollWallMs.p95} | ${i.cycleWallMs.p50} |`,
    );
  }
  out.push(
    "",
    "A cycle in which a tenth of the tests fail (a first failure each), for comparison:",
    "",
    "| subs | failed tests | Slack posts (alerts + outage messages) | DO requests (by method) | KV writes (objects / report) | subscription-object puts (rows) | per failed test: puts / KV writes |",
    "|---|---|---|---|---|---|---|",
  );
  for (const { n, alert: a } of rows) {
    const failed = Math.ceil(n / 10);
    const per = (v: number) => fmt(v / failed, 1);
    const byMethod = Object.entries(a.doRequestsByMethod)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ");
    out.push(
      `| ${n} | ${failed} | ${a.slackPosts} (${a.posts} + ${a.slackPosts - a.posts}) | ${a.doRequests} (${byMethod}) | ${a.kvWrites.objects} / ${a.kvWrites.reported} | ${a.storage.subscriptions.puts} (${a.storage.subscriptions.rows}) | ${per(a.storage.subscriptions.puts)} / ${per(a.kvWrites.objects)} |`,
    );
  }
  out.push(
    "",
    "A new failure is held in its channel's object for the outage window (`channel.hold`); closing the window (`channel.closeWindow`) decides grouped or alone for every held failure at once and posts an outage message through the channel's outbox, and each test's object is told its run's fate. Every post stores its intent before it is sent and its outcome after (the subscription-object puts above), the run's ledger row gets its fate, and the readable KV copy is written once. The methods in the table are the ones this cycle called, counted by name.",
    "",
  );

  const ref = rows.find((r) => r.n === DAY_SUBS);
  if (ref) {
    const i = ref.idle;
    const n = ref.n;
    const polls = i.doRequestsByMethod["subscription.wake"] ?? 0;
    const alert = ref.alert;
    const big = rows[rows.length - 1];
    out.push(
      `### Before and after, per idle cycle (${n} subscriptions; per subscription + fixed per cycle)`,
      "",
      "| | before (KV leases) | after (Durable Objects) |",
      "|---|---|---|",
      `| vendor requests | ${BEFORE.vendorPerSub} per subscription | ${fmt(i.vendorRequests / n, 2)} per subscription |`,
      `| KV reads | ${BEFORE.kvReadsPerSub} per subscription + ${BEFORE.kvReadsFixed} | 0 |`,
      `| KV writes | ${BEFORE.kvWritesIdle} | ${fmt(Math.max(i.kvWrites.objects, i.kvWrites.worker, i.kvWrites.reported), 1)} |`,
      `| Durable Object requests | — | ${fmt(polls / n, 2)} per subscription (its poll) + ${fmt(i.doRequests - polls, 1)} (the registry's calls for the cycle) |`,
      `| DO storage writes | — | ${fmt((i.storage.subscriptions.puts + i.storage.subscriptions.deletes) / n, 2)} per subscription + ${fmt(i.storage.registry.puts, 1)} registry put (${fmt(i.storage.registry.rows, 1)} rows) |`,
      `| DO storage reads | — | ${fmt(i.storage.subscriptions.gets / n, 2)} per subscription (state and ledger) + ${fmt(i.storage.registry.gets, 1)} (registry) |`,
      `| wall per cycle | ${BEFORE.wall10} ms (10 subs), ${BEFORE.wall100} ms (100), machine load 0.1–0.9 | ${i.cycleWallMs.p50} ms (${n} subs)${big && big.n !== n ? `, ${big.idle.cycleWallMs.p50} ms (${big.n})` : ""}, machine load above; ${fmt(i.pollWallMs.mean, 1)} ms mean per object poll |`,
      `| writes per alert posted alone | ${BEFORE.kvWritesPerAlert} KV writes + ${BEFORE.kvDeletesPerAlert} KV delete | ${alert.posts > 0 ? fmt(alert.kvWrites.objects / alert.posts, 1) : "—"} KV write + ${alert.posts > 0 ? fmt(alert.storage.subscriptions.puts / alert.posts, 1) : "—"} DO puts (${alert.posts > 0 ? fmt(alert.storage.subscriptions.rows / alert.posts, 1) : "—"} rows) |`,
      "",
    );
    const doPerDay = i.doRequests * CYCLES_PER_DAY;
    const gbs = i.objectWallSecondsPerCycle * GB_PER_OBJECT * CYCLES_PER_DAY;
    const gbsPolls = (i.pollWallMs.sum / i.cycles / 1000) * GB_PER_OBJECT * CYCLES_PER_DAY;
    const kvPerDay = Math.max(i.kvWrites.objects, i.kvWrites.worker, i.kvWrites.reported) * CYCLES_PER_DAY;
    const rowsWritten =
      (i.storage.subscriptions.rows + i.storage.subscriptions.deletes + i.storage.registry.rows) *
      CYCLES_PER_DAY;
    const rowsRead = (i.storage.subscriptions.gets + i.storage.registry.gets) * CYCLES_PER_DAY;
    const vendorPerDay = i.vendorRequests * CYCLES_PER_DAY;
    out.push(
      `### A day of ${DAY_SUBS} idle subscriptions at a 1-minute cron (${fmt(CYCLES_PER_DAY)} cycles), Free plan`,
      "",
      "| | before (KV leases, Worker only) | after (Durable Objects) | Free plan | after, share of Free |",
      "|---|---|---|---|---|",
      `| Durable Object requests | 0 | ${fmt(doPerDay)} (${fmt(i.doRequests, 1)} per cycle: ${DAY_SUBS} polls and the registry's calls) | ${fmt(FREE.doRequests)} | ${ratio(doPerDay, FREE.doRequests)} |`,
      `| DO duration, GB-s (128 MB × wall s of every DO call) | 0 | ${fmt(gbs)} (polls alone ${fmt(gbsPolls)}; ${fmt(i.objectWallSecondsPerCycle, 3)} object-seconds per cycle) | ${fmt(FREE.gbSeconds)} | ${ratio(gbs, FREE.gbSeconds)} |`,
      `| KV writes | ${BEFORE.kvWritesIdle} | ${fmt(kvPerDay)} | ${fmt(FREE.kvWrites)} | ${ratio(kvPerDay, FREE.kvWrites)} |`,
      `| KV reads | ${fmt((DAY_SUBS * BEFORE.kvReadsPerSub + BEFORE.kvReadsFixed) * CYCLES_PER_DAY)} | 0 on the cycle's path (state lives in the objects) | 100,000 | — |`,
      `| DO storage rows written | 0 | ${fmt(rowsWritten)} (the registry's writes for the cycle; the subscription objects write nothing) | ${fmt(FREE.rowsWritten)} | ${ratio(rowsWritten, FREE.rowsWritten)} |`,
      `| DO storage rows read | 0 | ${fmt(rowsRead)} (the objects' reads of state and ledger, and the registry's) | ${fmt(FREE.rowsRead)} | ${ratio(rowsRead, FREE.rowsRead)} |`,
      `| vendor requests | ${fmt(DAY_SUBS * BEFORE.vendorPerSub * CYCLES_PER_DAY)} | ${fmt(vendorPerDay)} | (vendor's own limits) | — |`,
      "",
      `Wall time is the caller's view of each RPC (dispatch, the poll's vendor request on loopback, the reply), with up to 8 polls in flight on 2 shared cores, so it overstates the billed duration: an idle object has nothing pending between polls and is eligible for hibernation, which Cloudflare does not bill (Durable Objects pricing, "Compute billing"). Before (the KV-lease engine, figures of BENCHMARKS.md §3 as of 2026-11-21, measured at commit d40eb50): one idle cycle took ${BEFORE.wall10} ms wall for 10 subscriptions and ${BEFORE.wall100} ms for 100 in one Worker invocation (CPU-billed, no duration charge); per alert it wrote ${BEFORE.kvWritesPerAlert} KV keys and deleted ${BEFORE.kvDeletesPerAlert} (the lease), which capped it near 500 alerts a day on the Free plan's 1,000 KV writes. After, an alert costs one KV write (the readable copy) and three DO storage puts. DO storage limits are the Free plan's daily limits for SQLite-backed objects as published on the pricing page; rows are counted here as keys written, an approximation of SQLite rows.`,
      "",
    );
  }
  out.push("<!-- poll-cost:end -->");
  return out.join("\n");
}

async function main() {
  const sizes = process.env.POLL_COST_SIZES ?? "1,20,100";
  const started = Date.now();
  const res = await run(
    process.execPath,
    [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/poll-cost.config.ts"],
    { POLL_COST_SIZES: sizes, NO_COLOR: "1", FORCE_COLOR: "0" },
    VITEST_RUN_BOUND_MS,
  );
  const rows = res.stdout
    .split("\n")
    .filter((l) => l.includes("BENCH_JSON "))
    .map((l) => JSON.parse(l.slice(l.indexOf("BENCH_JSON ") + 11)) as Row)
    .filter((r) => r.kind === "poll-cost-objects")
    .sort((a, b) => a.n - b.n);
  if (res.code !== 0 || rows.length === 0) {
    console.error(res.stdout.slice(-4000));
    throw new Error("poll-cost benchmark failed");
  }
  const section = render(rows, (Date.now() - started) / 1000);
  console.log(section);
  for (const r of rows) console.log(`POLL_COST_JSON ${JSON.stringify(r)}`);
  if (process.env.POLL_COST_WRITE === "1") {
    writeSection("20-engine-cost.md", "<!-- poll-cost:start", "<!-- poll-cost:end -->", section);
    console.log("wrote the section to BENCHMARKS.md");
  }
}

await main();
