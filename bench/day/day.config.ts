import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "../../vitest.config.ts";

/**
 * The workerd side of `npm run bench:day` (bench/day/day.ts): a simulated day of the real engine,
 * in single-workspace mode only (the suite's projects are not inherited). BENCH_DAY_SIZES and
 * BENCH_DAY_WINDOW_MINUTES, BENCH_DAY_SEED and BENCH_DAY_PLAN are handed to bench/day/day.bench.ts.
 */
const sizes = (process.env.BENCH_DAY_SIZES ?? "20,200,1000")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const windows = (process.env.BENCH_DAY_WINDOW_MINUTES ?? "")
  .split(",")
  .map(Number)
  .filter((n) => Number.isFinite(n) && n > 0);

const seed = Number(process.env.BENCH_DAY_SEED ?? "35");
const plan = process.env.BENCH_DAY_PLAN ?? "";
const provide: Record<string, { sizes: number[]; windows: number[]; seed: number; plan: string }> = {
  dayBench: { sizes, windows, seed, plan },
};

/**
 * Every object stays in memory for the whole run: workerd evicts one idle for a few seconds of
 * wall time, which is minutes of simulated time here, while on Cloudflare an object polled every
 * minute is rarely idle long enough to be evicted (and its in-memory state, e.g. what it last
 * reported to its registry shard, changes what it costs).
 */
const kept = (className: string) => ({ className, useSQLite: true, unsafePreventEviction: true });
const durableObjects = {
  SUBSCRIPTIONS: kept("SubscriptionObject"),
  CHANNELS: kept("ChannelObject"),
  REGISTRY: kept("RegistryObject"),
  SLACK_EVENT_GATE: kept("SlackEventGate"),
  WORKSPACES: kept("WorkspaceObject"),
  INSTALL_STATES: kept("InstallStateObject"),
};

export default defineConfig({
  plugins: [singleWorker({ durableObjects })],
  test: {
    ...shared,
    include: ["bench/day/day.bench.ts"],
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    provide,
    // Its figures are the DAY_JSON lines the passing test prints.
    silent: false,
    onConsoleLog: (log) => !/^(watchdog|poll everything): /.test(log),
  },
});
