/**
 * The Decipher emulator and the Slack stand-in on loopback, in this process, without a bot:
 * the servers under test (bench/peer/edge.ts, profile.ts) are started by the bench itself.
 */

import { startEmulator } from "../../dev/emulator/server.ts";
import { slackAdmin } from "../../dev/slack/admin-client.ts";
import { startSlackStandIn } from "../../dev/slack/standin-server.ts";
import { DEMO_API_KEY, randomSecrets } from "../../dev/stack.ts";
import type { Services } from "./compare.ts";
import type { WorkerVars } from "./workerd-direct.ts";

export type RunningServices = Services & { vars: WorkerVars; stop(): Promise<void> };

export async function startServices(): Promise<RunningServices> {
  const { signingSecret, botToken } = randomSecrets();
  const emulator = await startEmulator({ port: 0, host: "127.0.0.1", seed: 1 });
  const slack = await startSlackStandIn({ port: 0, host: "127.0.0.1", signingSecret, botToken });
  // The team bench/peer/isolate-harness.ts names in its commands: the workspace's own.
  await slackAdmin(slack.url).team(botToken, "T0TEST");
  return {
    emulatorUrl: emulator.url,
    slackUrl: slack.url,
    signingSecret,
    botToken,
    apiKey: DEMO_API_KEY,
    vars: {
      DECIPHER_API_URL: emulator.url,
      DECIPHER_API_KEY: DEMO_API_KEY,
      SLACK_API_URL: slack.apiUrl,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: botToken,
    },
    stop: async () => {
      await slack.close();
      await emulator.close();
    },
  };
}
