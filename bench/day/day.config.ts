import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "../../vitest.config.ts";

/**
 * The workerd side of `npm run bench:day` (bench/day/day.ts): a simulated day of the real engine,
 * in single-workspace mode only (the suite's projects are not inherited). BENCH_DAY_SIZES and
 * BENCH_DAY_WINDOW_MINUTES and BENCH_DAY_SEED are handed to bench/day/day.bench.ts.
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
const provide: Record<string, { sizes: number[]; windows: number[]; seed: number }> = {
  dayBench: { sizes, windows, seed },
};

export default defineConfig({
  plugins: [singleWorker()],
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
