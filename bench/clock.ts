/**
 * `npm run bench:clock`: what the clock costs (README "The clock"). Runs bench/clock.bench.ts in
 * workerd (bench/clock.config.ts) and prints a Markdown section: the watchdog cron's internal
 * and external subrequests at 10, 1,000 and 10,000 subscriptions, one object's alarm (idle,
 * running), and a day of Durable Object requests for 20 subscriptions with 24 runs per test.
 * The latency from failure to Slack is measured in real time by bench/alert-latency.ts.
 */
import { spawn } from "node:child_process";
import { ROOT } from "../dev/stack.ts";

process.env.WRANGLER_SEND_METRICS = "false";

type Cron = {
  kind: "cron";
  n: number;
  stopped: number;
  woken: number;
  internal: number;
  doCalls: Record<string, number>;
  kvOps: number;
  external: number;
  wallMs: number;
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

const lines: string[] = [];
lines.push("### The watchdog cron, per invocation (workerd, counted)");
lines.push("");
lines.push(
  "| subscriptions | clocks stopped | objects woken | internal subrequests (DO + KV; limit 1,000) | external (limit 50) | wall |",
);
lines.push("|---:|---:|---:|---:|---:|---:|");
for (const c of crons)
  lines.push(
    `| ${fmt(c.n)} | ${fmt(c.stopped)} | ${fmt(c.woken)} | ${fmt(c.internal)} (${Object.entries(c.doCalls)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}${c.kvOps ? `, KV ${c.kvOps}` : ""}) | ${c.external} | ${fmt(c.wallMs)} ms |`,
  );
lines.push("");

const { RUNNING_POLL_MS, IDLE_POLL_MS, LEASE_RENEW_MS } = alarm.constants;
const idle = alarm.idle;
const idleVendor = Math.max(...idle.map((w) => w.vendor));
const idleStorage = Math.max(...idle.map((w) => w.storageWrites));
const idleKv = Math.max(...idle.map((w) => w.kvWrites));
const idleCalls = Math.max(...idle.map((w) => sum(w.otherObjectCalls)));
lines.push("### One object's alarm (counted)");
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
const day = SUBS * perSub + cronPerDay;
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
lines.push(`| **total** (Free: 100,000) | | **${fmt(day)}** |`);
console.log(lines.join("\n"));
