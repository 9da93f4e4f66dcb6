import { defineConfig } from "vitest/config";
import { shared, singleWorker } from "./vitest.config.ts";

/**
 * `npm run test:chaos`: the reliability suite with a seed and round counts from the
 * environment. CHAOS_ROUNDS: rounds of test/chaos/exactly-once.test.ts (1,000 take ~5–6 min on
 * 2 cores); CHAOS_WIDE_ROUNDS: rounds of test/chaos/alerts.test.ts (growth, pauses; ~1 s
 * each, twice); CHAOS_TEAM_ROUNDS: rounds of test/chaos/team-clock.test.ts (the team's clock with
 * shards dying mid-tick and teams resized; ~3 s each, and a third as many ~3 s each in a team
 * past one invocation's 800 calls); CHAOS_SEED. `npm test` runs the same
 * files with 12 rounds each (the team clock's 6).
 */
const int = (value: string | undefined) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : undefined;
};
const provide: Record<string, number> = {};
const seed = int(process.env.CHAOS_SEED);
const rounds = int(process.env.CHAOS_ROUNDS);
const wideRounds = int(process.env.CHAOS_WIDE_ROUNDS);
const teamRounds = int(process.env.CHAOS_TEAM_ROUNDS);
if (seed !== undefined) provide.chaosSeed = seed;
if (rounds !== undefined) provide.chaosRounds = rounds;
if (wideRounds !== undefined) provide.chaosWideRounds = wideRounds;
if (teamRounds !== undefined) provide.chaosTeamRounds = teamRounds;

export default defineConfig({
  plugins: [singleWorker()],
  test: {
    ...shared,
    include: ["test/chaos/**/*.test.ts", "test/fuzz/**/*.test.ts", "test/security/**/*.test.ts"],
    testTimeout: 900_000,
    provide,
    // The rounds' summaries are this suite's output.
    silent: false,
    // One line per cron (src/index.ts) would bury the summaries of a thousand rounds.
    onConsoleLog: (log) => !log.startsWith("poll cycle "),
  },
});
