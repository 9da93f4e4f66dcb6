import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testWranglerConfig } from "./test/setup/wrangler-config.ts";

/**
 * The Worker inside workerd; `extra` are the bindings of one deployment mode, `more` further
 * Miniflare options (bench/day/day.config.ts keeps its objects in memory).
 */
const worker = (extra: (slackUrl: string) => Record<string, string>, more: Record<string, unknown> = {}) =>
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
        ...extra(inject("slackUrl")),
      },
      ...more,
    },
  }));

export const shared = {
  globalSetup: ["./test/setup/global.ts"],
  setupFiles: ["./test/setup/fresh-state.ts", "./test/setup/secret-watch.ts"],
  // Property tests run hundreds of cases: on 2 busy cores vitest's 5 s default is too tight.
  testTimeout: 30_000,
  // What a test logs (the faults it injects on purpose, poll summaries) is shown when it fails.
  silent: "passed-only" as const,
};

/** A fixed test key (base64 of 32 bytes): multi-workspace mode seals tokens and keys with it. */
const TEST_ENCRYPTION_KEY = "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=";

/** Single-workspace mode's Worker, also the chaos suite's (vitest.chaos.config.ts). */
export const singleWorker = (more: Record<string, unknown> = {}) => worker(() => ({}), more);

export default defineConfig({
  test: {
    // The reporter reads `silent` from the root config only; the projects' own copy is not enough.
    silent: shared.silent,
    projects: [
      {
        // Single-workspace mode, the default: every suite but the install one.
        plugins: [singleWorker()],
        test: { ...shared, name: "single", include: ["test/**/*.test.ts"], exclude: ["test/install/**"] },
      },
      {
        // Multi-workspace mode (Add to Slack): the same Worker with a client id, secret and key, and
        // no SLACK_BOT_TOKEN or DECIPHER_API_KEY to fall back on.
        plugins: [
          worker((slackUrl) => ({
            SLACK_CLIENT_ID: "1234567890.0987654321",
            SLACK_CLIENT_SECRET: "standin-client-secret",
            ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
            SLACK_OAUTH_URL: `${slackUrl.replace(/\/api\/?$/, "")}/oauth/v2/authorize`,
            SLACK_BOT_TOKEN: "",
            DECIPHER_API_KEY: "",
          })),
        ],
        test: { ...shared, name: "multi", include: ["test/install/**/*.test.ts"] },
      },
    ],
  },
});
