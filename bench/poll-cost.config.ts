import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "../vitest.config.ts";

/**
 * The workerd side of `npm run bench:poll-cost` (bench/poll-cost.ts): what an idle cycle of
 * the Durable Object engine costs. POLL_COST_SIZES=1,20,100 picks the subscription counts.
 */
const sizes = (process.env.POLL_COST_SIZES ?? "1,20,100")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const provide: Record<string, number[]> = { pollCostSizes: sizes };

// Single-workspace mode only: the suite's projects are not inherited, so the bench file runs
// once and no test file runs beside it.
export default defineConfig({
  plugins: [singleWorker()],
  test: {
    ...shared,
    include: ["bench/poll-cost.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    provide,
    // Its figures are the BENCH_JSON lines the passing test prints.
    silent: false,
    // The cron's own line (src/cron.ts cycleLogLine) is noise here.
    onConsoleLog: (log) => !/^(watchdog|poll everything): /.test(log),
  },
});
