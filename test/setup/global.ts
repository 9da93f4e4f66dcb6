import type { TestProject } from "vitest/node";
import { startEmulator } from "../../dev/emulator/server.ts";
import { startSlackStandIn } from "../../dev/slack/standin-server.ts";
import { quietOnPurposeAborts } from "./quiet-on-purpose.ts";

/** Real HTTP on loopback: the vendor emulator and the Slack stand-in, one each per test run. */
export default async function setup(project: TestProject) {
  // What workerd prints of the aborts tests make on purpose is not news (quiet-on-purpose.ts).
  const loud = quietOnPurposeAborts();
  const emulator = await startEmulator({ port: 0, host: "127.0.0.1", seed: 1 });
  // Same secret and token as the Worker's bindings in vitest.config.ts.
  const slack = await startSlackStandIn({
    port: 0,
    host: "127.0.0.1",
    signingSecret: "test-signing-secret",
    botToken: "xoxb-test-token",
    // DECIPHER_APP_URL in vitest.config.ts.
    unfurlDomains: ["app.decipher.test"],
  });
  project.provide("emulatorUrl", emulator.url);
  project.provide("slackUrl", slack.apiUrl);
  return async () => {
    await Promise.all([emulator.close(), slack.close()]);
    loud();
  };
}
