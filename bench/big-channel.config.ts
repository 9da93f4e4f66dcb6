import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "../vitest.config.ts";

/**
 * The workerd side of `npm run bench:big-channel` (bench/big-channel.ts): list, status and Home
 * of one channel with many subscriptions. BIG_CHANNEL_SIZE=200 and BIG_CHANNEL_ROUNDS=15 set it.
 */
const provide: Record<string, number> = {
  bigChannelSize: Number(process.env.BIG_CHANNEL_SIZE ?? 200) || 200,
  bigChannelRounds: Number(process.env.BIG_CHANNEL_ROUNDS ?? 15) || 15,
};

// Single-workspace mode only: the suite's projects are not inherited, so the bench file runs
// once and no test file runs beside it.
export default defineConfig({
  plugins: [singleWorker()],
  test: {
    ...shared,
    include: ["bench/big-channel.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    provide,
    silent: false,
  },
});
