import { app } from "./app.ts";
import { type Config, ConfigError, type Env, readConfig } from "./config.ts";
import { cycleLogLine, runPollCycle } from "./cron.ts";
import { POLL_EVERYTHING_CRON } from "./model/poll-clock.ts";

export { ChannelObject } from "./objects/channel-object.ts";
export { InstallStateObject } from "./objects/install-state-object.ts";
export { RegistryObject } from "./objects/registry-object.ts";
export { SlackEventGate } from "./objects/slack-event-gate.ts";
export { SubscriptionObject } from "./objects/subscription-object.ts";
export { WorkspaceObject } from "./objects/workspace-object.ts";

/** Names the missing variables, never their values. */
function configured(env: Env): Config | null {
  try {
    return readConfig(env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : "configuration could not be read");
    return null;
  }
}

export default {
  fetch: app.fetch,

  /** The watchdog and digest clock (src/cron.ts): the subscription objects poll on their own alarms. */
  async scheduled(controller, env, _ctx) {
    const config = configured(env);
    if (!config) return;
    const everything = controller.cron === POLL_EVERYTHING_CRON;
    const report = await runPollCycle(env, config, { now: new Date(controller.scheduledTime), everything });
    console.log(cycleLogLine(report, everything || config.clock === "cron"));
  },
} satisfies ExportedHandler<Env>;
