import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * `npm run test:chaos`: the reliability suite with a seed and round count from the
 * environment (CHAOS_SEED, CHAOS_ROUNDS). `npm test` runs the same files with fixed defaults.
 */
const int = (value: string | undefined) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
};
const provide: Record<string, number> = {};
const seed = int(process.env.CHAOS_SEED);
const rounds = int(process.env.CHAOS_ROUNDS);
if (seed !== undefined) provide.chaosSeed = seed;
if (rounds !== undefined) provide.chaosRounds = rounds;

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/chaos/**/*.test.ts", "test/fuzz/**/*.test.ts", "test/security/**/*.test.ts"],
    testTimeout: 900_000,
    provide,
    // One line per cron (src/index.ts) would bury the summaries of a thousand rounds.
    onConsoleLog: (log) => !log.startsWith("poll cycle "),
  },
});
