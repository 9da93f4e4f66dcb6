import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "../vitest.config.ts";

/**
 * The workerd side of `npm run bench:clock` (bench/clock.ts): the clock's counted costs, in
 * single-workspace mode only (the suite's projects are not inherited, so the bench file runs
 * once and no test file runs beside it).
 */
export default defineConfig({
  plugins: [singleWorker()],
  test: {
    ...shared,
    include: ["bench/clock.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    // Its figures are the CLOCK_JSON lines the passing tests print.
    silent: false,
    // The cron's own line (src/cron.ts cycleLogLine) is noise here.
    onConsoleLog: (log) => !/^(watchdog|poll everything): /.test(log),
  },
});
