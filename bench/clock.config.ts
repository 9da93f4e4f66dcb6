import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";

/** The workerd side of `npm run bench:clock` (bench/clock.ts): the clock's counted costs. */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["bench/clock.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    // Its figures are the CLOCK_JSON lines the passing tests print.
    silent: false,
    onConsoleLog: (log) => !log.startsWith("poll cycle "),
  },
});
