import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * The workerd side of `npm run bench`: cost benchmarks that count KV, vendor, Slack and queue
 * operations. Not part of `npm test` (they print numbers and take a while).
 * BENCH_SIZES=1,10,100 picks the subscription counts (default 1,10,100,1000).
 */
const sizes = (process.env.BENCH_SIZES ?? "1,10,100,1000")
  .split(",")
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/chaos/*.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    provide: { benchSizes: sizes },
  },
});
