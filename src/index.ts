import { type PollChunk, pollChunk, runPollCycle } from "./alerts/poll-cycle.ts";
import { app } from "./app.ts";
import { ConfigError, type Env, readConfig } from "./env.ts";
import { createDeps } from "./slack/deps.ts";

export { SlackEventGate } from "./objects/slack-event-gate.ts";

function depsOrLog(env: Env) {
  try {
    return createDeps(readConfig(env), env.STATE);
  } catch (error) {
    // Names the missing variables, never their values.
    console.error(error instanceof ConfigError ? error.message : "configuration could not be read");
    return null;
  }
}

export default {
  fetch: app.fetch,

  async scheduled(controller, env, _ctx) {
    const deps = depsOrLog(env);
    if (!deps) return;
    const report = await runPollCycle(deps, {
      now: new Date(controller.scheduledTime),
      queue: env.POLL_QUEUE,
    });
    console.log(`poll cycle ${JSON.stringify(report)}`);
  },

  async queue(batch, env, _ctx) {
    const deps = depsOrLog(env);
    if (!deps) {
      batch.retryAll();
      return;
    }
    for (const message of batch.messages) {
      const chunk = message.body as PollChunk;
      // Polls against the current time: state, not the message, says what is new.
      await pollChunk(deps, chunk.keys, new Date(), message.id);
      message.ack();
    }
  },
} satisfies ExportedHandler<Env, PollChunk>;
