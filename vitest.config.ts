import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testWranglerConfig } from "./test/setup/wrangler-config.ts";

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      main: "./src/index.ts",
      // wrangler.toml read from a folder without the `.dev.vars` that `npm start` writes: the
      // tests' bindings are the ones below, never the sandbox's secrets.
      wrangler: { configPath: testWranglerConfig(import.meta.dirname) },
      miniflare: {
        bindings: {
          DECIPHER_API_URL: inject("emulatorUrl"),
          DECIPHER_APP_URL: "https://app.decipher.test",
          DECIPHER_API_KEY: "dcp_demo_acme",
          SLACK_SIGNING_SECRET: "test-signing-secret",
          SLACK_BOT_TOKEN: "xoxb-test-token",
          SLACK_API_URL: inject("slackUrl"),
          // Keeps the "vendor hangs" tests short; production default is 8000.
          VENDOR_TIMEOUT_MS: "1000",
          // A test sets the time of each cycle itself (bot.cron(at)): the cron polls every
          // subscription and no object sets an alarm that would fire on its own in real time.
          // test/engine/poll-clock.test.ts runs the objects' own alarms.
          POLL_CLOCK: "cron",
        },
      },
    })),
  ],
  test: {
    globalSetup: ["./test/setup/global.ts"],
    setupFiles: ["./test/setup/fresh-state.ts", "./test/setup/secret-watch.ts"],
    include: ["test/**/*.test.ts"],
    // Property tests run hundreds of cases: on 2 busy cores vitest's 5 s default is too tight.
    testTimeout: 30_000,
    // What a test logs (the faults it injects on purpose, poll summaries) is shown when it fails.
    silent: "passed-only",
  },
});
