import { defineConfig } from "vitest/config";
import base from "../vitest.config.ts";

/**
 * The workerd side of `npm run bench:big-channel` (bench/big-channel.ts): list, status and Home
 * of one channel with many subscriptions. BIG_CHANNEL_SIZE=200 and BIG_CHANNEL_ROUNDS=15 set it.
 */
const provide: Record<string, number> = {
  bigChannelSize: Number(process.env.BIG_CHANNEL_SIZE ?? 200) || 200,
  bigChannelRounds: Number(process.env.BIG_CHANNEL_ROUNDS ?? 15) || 15,
};

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["bench/big-channel.bench.ts"],
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 120_000,
    provide,
    silent: false,
  },
});
