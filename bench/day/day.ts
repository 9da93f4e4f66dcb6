/**
 * `npm run bench:day` (issue #35, "Measure it: a simulated day"): runs bench/day/day.bench.ts in
 * workerd (bench/day/day.config.ts) and prints, per size, the day's counted operations against
 * Cloudflare's Free limits and Paid prices (bench/day/limits.ts), the alert latency the schedule
 * produced, and one plain line per size.
 *
 * BENCH_DAY_SIZES=20,200,1000 (the default) picks the sizes; BENCH_DAY_WINDOW_MINUTES=120,60,40
 * the minutes simulated per size (one number: every size); BENCH_DAY_SEED=35 the schedule and
 * the teams' tokens (the objects' names, hence their phases); BENCH_DAY_PLAN=paid runs at full
 * speed (the clock before the governor: labelled "before"), unset the default plan (Free,
 * governed: "governor"); BENCH_DAY_LABEL names
 * the section; BENCH_DAY_WRITE=1 writes it to bench/sections/ and BENCHMARKS.md.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../dev/stack.ts";
import { run, VITEST_RUN_BOUND_MS } from "../exec.ts";
import { writeSection } from "../write-section.ts";
import { dayOf, usesOf, verdict } from "./day-figures.ts";
import { renderDay } from "./day-report.ts";
import type { DayResult } from "./day-result.ts";

process.env.WRANGLER_SEND_METRICS = "false";

/** The bot's PLAN (src/config.ts): "paid" runs at full speed, the default lets the governor slow a day down. */
const plan = process.env.BENCH_DAY_PLAN ?? "";
const label = process.env.BENCH_DAY_LABEL ?? (plan === "paid" ? "before" : "governor");
const sizes = process.env.BENCH_DAY_SIZES ?? "20,200,1000";
const windows = process.env.BENCH_DAY_WINDOW_MINUTES ?? "";

const commit = () => {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT }).toString().trim();
  } catch {
    return "unknown";
  }
};

async function main() {
  const started = Date.now();
  const res = await run(
    process.execPath,
    [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/day/day.config.ts"],
    {
      BENCH_DAY_SIZES: sizes,
      BENCH_DAY_WINDOW_MINUTES: windows,
      BENCH_DAY_SEED: process.env.BENCH_DAY_SEED ?? "35",
      BENCH_DAY_PLAN: plan,
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    },
    VITEST_RUN_BOUND_MS,
  );
  const results = res.stdout
    .split("\n")
    .filter((l) => l.includes("DAY_JSON "))
    .map((l) => JSON.parse(l.slice(l.indexOf("DAY_JSON ") + 9)) as DayResult)
    .sort((a, b) => a.n - b.n);
  if (res.code !== 0 || results.length === 0) {
    console.error(res.stdout.slice(-4000), res.stderr.slice(-2000));
    throw new Error("the simulated day failed");
  }
  const context = {
    commit: commit(),
    at: new Date().toISOString(),
    cores: cpus().length,
    load: loadavg().map((v) => v.toFixed(2)),
    seconds: (Date.now() - started) / 1000,
    label,
    plan: plan || "default (free)",
  };
  const section = renderDay(results, context);
  console.log(section);
  for (const r of results) console.log(`DAY_RESULT ${JSON.stringify(r)}`);
  if (process.env.BENCH_DAY_WRITE === "1") {
    const name = `day-${label}`;
    writeSection(`60-${name}.md`, `<!-- ${name}:start`, `<!-- ${name}:end -->`, section);
    console.log(`wrote the section to BENCHMARKS.md and bench/sections/60-${name}.md`);
  }
  console.log("");
  for (const r of results) console.log(verdict(r.n, usesOf(r, dayOf(r))));
}

await main();
