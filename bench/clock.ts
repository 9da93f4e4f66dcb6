/**
 * `npm run bench:clock`: what the clock costs (docs/operations.md, "The clock"). Runs bench/clock.bench.ts in
 * workerd (bench/clock.config.ts) and writes its part of bench/sections/35-clock.md (from the
 * cron's table on): the watchdog cron's internal and external subrequests at 10, 1,000 and
 * 10,000 subscriptions over 1, 10 and 1,000 teams, the registry shards' and directory's sizes,
 * one object's alarm (idle, running), and a day of Durable Object requests for 20
 * subscriptions with 24 runs per test.
 * The latency from failure to Slack is measured in real time by bench/alert-latency.ts.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../dev/stack.ts";

process.env.WRANGLER_SEND_METRICS = "false";

type Cron = {
  kind: "cron";
  n: number;
  teams: number;
  stopped: number;
  woken: number;
  internal: number;
  doCalls: Record<string, number>;
  kvOps: number;
  external: number;
  wallMs: number;
  largestShard: { subscriptions: number; bytes: number };
  directoryBytes: number;
};
type Wake = {
  vendor: number;
  storageWrites: number;
  kvWrites: number;
  otherObjectCalls: Record<string, number>;
  status: string;
};
type Alarm = {
  kind: "alarm";
  idle: Wake[];
  firstRunning: Wake;
  running: Wake;
  finished: Wake;
  constants: {
    RUNNING_POLL_MS: number;
    IDLE_POLL_MS: number;
    LEASE_RENEW_MS: number;
    LEASE_MS: number;
    WATCHDOG_WAKES_PER_CYCLE: number;
    WATCHDOG_SHARDS_PER_CYCLE: number;
  };
};

function vitest(): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", "--config", "bench/clock.config.ts"], { cwd: ROOT });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", () => {});
    child.on("close", () => resolve(out));
  });
}

const fmt = (v: number) => Math.round(v).toLocaleString("en-US");
const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

const out = await vitest();
const rows = out
  .split("\n")
  .filter((l) => l.includes("CLOCK_JSON "))
  .map((l) => JSON.parse(l.slice(l.indexOf("CLOCK_JSON ") + 11)) as Cron | Alarm);
const crons = rows.filter((r): r is Cron => r.kind === "cron");
const alarm = rows.find((r): r is Alarm => r.kind === "alarm");
if (crons.length === 0 || !alarm) {
  console.error(out.slice(-3000));
  throw new Error("the bench printed no figures");
}

const { WATCHDOG_WAKES_PER_CYCLE, WATCHDOG_SHARDS_PER_CYCLE } = alarm.constants;
const kb = (bytes: number) => `${fmt(bytes / 1024)} KB`;
const lines: string[] = [];
lines.push("### The watchdog cron, per invocation");
lines.push("");
lines.push(
  "Before: one Durable Object call per subscription per cron (1,006 internal subrequests at 1,000 subscriptions, over the limit of 1,000), and a Queue past 200 subscriptions (about 17,000 operations a day at 1,000; Workers Free allows 10,000). After: the registry is one shard per Slack team (`registry:<teamId>`), and a directory of shards (the root object, `registry`) that a shard tells only when the cron or `/health` would otherwise be wrong: an earlier lease or digest time, a later one once it is 5 minutes off, a change of its counts. The cron asks the directory which shards have work due (`registry.dueShards`), asks each of those for its expired leases and due digests (`registry.beginCycle`), wakes those objects, records their polls in their shard (`registry.recordPolls`, one call per team with a wake) and its own times in the directory (`registry.endCycle`). No Queue.",
);
lines.push("");
lines.push(
  "| subscriptions | teams (shards) | clocks stopped | objects woken | internal subrequests (DO + KV; limit 1,000) | external (limit 50) | wall |",
);
lines.push("|---:|---:|---:|---:|---:|---:|---:|");
for (const c of crons)
  lines.push(
    `| ${fmt(c.n)} | ${fmt(c.teams)} | ${fmt(c.stopped)} | ${fmt(c.woken)} | ${fmt(c.internal)} (${Object.entries(
      c.doCalls,
    )
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}${c.kvOps ? `, KV ${c.kvOps}` : ""}) | ${c.external} | ${fmt(c.wallMs)} ms |`,
  );
lines.push("");
const worst = crons.reduce((a, b) => (b.internal > a.internal ? b : a));
lines.push(
  `While every clock runs, the cron makes 2 internal subrequests at every size and every number of teams: the directory names no shard, and no shard is called. With clocks stopped it adds one call per shard that has one (at most ${WATCHDOG_SHARDS_PER_CYCLE} shards and ${WATCHDOG_WAKES_PER_CYCLE} wakes an invocation), so its worst case here is ${fmt(worst.internal)} internal subrequests (${fmt(worst.n)} subscriptions over ${fmt(worst.teams)} teams, ${fmt(worst.stopped)} stopped). It makes no external subrequest at any size: the polls run in the objects' own invocations (each an alarm, with its own 50 external subrequests and 1,000 internal ones). When every clock stopped at once it restarts ${WATCHDOG_WAKES_PER_CYCLE} a minute, so 10,000 are all running again within ${Math.ceil(10_000 / WATCHDOG_WAKES_PER_CYCLE)} minutes.`,
);
lines.push("");
lines.push("### Registry shard and directory sizes (SQLite, as measured above)");
lines.push("");
lines.push(
  "| subscriptions | teams | subscriptions in the largest shard | its SQLite size | the directory's SQLite size |",
);
lines.push("|---:|---:|---:|---:|---:|");
const seen = new Set<string>();
for (const c of crons) {
  const key = `${c.n}:${c.teams}`;
  if (seen.has(key)) continue;
  seen.add(key);
  lines.push(
    `| ${fmt(c.n)} | ${fmt(c.teams)} | ${fmt(c.largestShard.subscriptions)} | ${kb(c.largestShard.bytes)} | ${kb(c.directoryBytes)} |`,
  );
}
lines.push("");
lines.push(
  "A shard keeps its team's subscriptions as rows of one table (name, ref, lease, last poll), so it grows by a row per subscription and no single value grows with the team; the directory keeps one row per team, and `/health` adds them up in one query there, without calling a shard.",
);
lines.push("");

const { RUNNING_POLL_MS, IDLE_POLL_MS, LEASE_RENEW_MS } = alarm.constants;
const idle = alarm.idle;
const idleVendor = Math.max(...idle.map((w) => w.vendor));
const idleStorage = Math.max(...idle.map((w) => w.storageWrites));
const idleKv = Math.max(...idle.map((w) => w.kvWrites));
const idleCalls = Math.max(...idle.map((w) => sum(w.otherObjectCalls)));
lines.push("### One object's alarm, and a day of 20 subscriptions");
lines.push("");
lines.push("| poll | vendor requests | storage writes | KV writes | calls to other objects |");
lines.push("|---|---:|---:|---:|---:|");
lines.push(`| idle (max of ${idle.length}) | ${idleVendor} | ${idleStorage} | ${idleKv} | ${idleCalls} |`);
for (const [label, w] of [
  ["a run first seen running", alarm.firstRunning],
  ["the run still running", alarm.running],
  ["the run passed", alarm.finished],
] as const)
  lines.push(
    `| ${label} | ${w.vendor} | ${w.storageWrites} | ${w.kvWrites} | ${sum(w.otherObjectCalls)} ${JSON.stringify(w.otherObjectCalls)} |`,
  );
lines.push("");

// A day of 20 subscriptions, each test with 24 runs of RUN_MINUTES running, one failing in ten
// in a channel of 20 (the window asks the 19 others to poll: one pollSoon, one extra alarm and
// one `polled` each, plus the hold, the window's alarm and the tell).
const SUBS = 20;
const RUNS = 24;
const RUN_MINUTES = 5;
const FAILURES = RUNS / 10;
const minutes = 24 * 60;
const runningAlarms = (RUNS * RUN_MINUTES * 60_000) / RUNNING_POLL_MS;
const idleAlarms = ((minutes - RUNS * RUN_MINUTES) * 60_000) / IDLE_POLL_MS;
const renewals = (minutes * 60_000) / LEASE_RENEW_MS;
const perFailure = 3 + 3 * (SUBS - 1);
const cronPerDay = minutes * (crons[0] ? sum(crons[0].doCalls) : 2);
const perSub = runningAlarms + idleAlarms + renewals + FAILURES * perFailure;
// The team's shard tells the directory when its earliest lease moved 5 minutes later, or its
// last success is 5 minutes newer (src/objects/registry-directory.ts): at most twice per period.
const directoryTells = 2 * ((minutes * 60_000) / LEASE_RENEW_MS);
const day = SUBS * perSub + cronPerDay + directoryTells;
lines.push("### Durable Object requests a day: 20 subscriptions, 24 runs per test");
lines.push("");
lines.push(
  `Assumed: each run is running for ${RUN_MINUTES} minutes; one run in ten fails; the 20 tests share a channel.`,
);
lines.push("");
lines.push("| | per subscription | 20 subscriptions |");
lines.push("|---|---:|---:|");
lines.push(
  `| alarms while a run is running (every ${RUNNING_POLL_MS / 1000} s) | ${fmt(runningAlarms)} | ${fmt(SUBS * runningAlarms)} |`,
);
lines.push(
  `| alarms otherwise (every ${IDLE_POLL_MS / 1000} s) | ${fmt(idleAlarms)} | ${fmt(SUBS * idleAlarms)} |`,
);
lines.push(
  `| lease renewals (every ${LEASE_RENEW_MS / 60_000} min) | ${fmt(renewals)} | ${fmt(SUBS * renewals)} |`,
);
lines.push(
  `| outage windows (${FAILURES} failures × ${perFailure} requests) | ${fmt(FAILURES * perFailure)} | ${fmt(SUBS * FAILURES * perFailure)} |`,
);
lines.push(`| the watchdog cron (1,440 a day, all clocks running) | | ${fmt(cronPerDay)} |`);
lines.push(
  `| the team's registry shard telling the directory (at most twice every ${LEASE_RENEW_MS / 60_000} min) | | ${fmt(directoryTells)} |`,
);
lines.push(`| **total** (Free: 100,000) | | **${fmt(day)}** |`);
lines.push("");
lines.push(
  "An idle alarm is still 1 vendor request, 0 KV writes and 0 storage writes (the alarm itself is the one Durable Object request; setting the next alarm is not counted by the object's write counter). Before, 20 idle subscriptions at the 1-minute cron cost about 31,700 object requests a day; after, 20 subscriptions with 24 runs per test, each running 5 minutes (polled every 10 s meanwhile), cost the figure above.",
);
const section = lines.join("\n");
console.log(section);
// The section's beginning (the latency figures of `npm run bench:latency`) is kept; from the
// cron's table on it is this run's.
const file = join(ROOT, "bench/sections/35-clock.md");
const kept = readFileSync(file, "utf8");
const from = kept.indexOf("### The watchdog cron");
writeFileSync(file, `${(from >= 0 ? kept.slice(0, from) : kept).trimEnd()}\n\n${section}\n`);
