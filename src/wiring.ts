import type { Config, Env } from "./config.ts";
import { createEngineDeps, type EngineDeps, type EngineDepsOptions } from "./engine/engine-deps.ts";
import type { AlertControl } from "./model/alert-control.ts";
import type { EventGateNamespace } from "./objects/event-gate-client.ts";
import { objectControl } from "./objects/object-control.ts";

/**
 * The composition root for HTTP: everything a handler may touch, built once per request so
 * tests can swap any part.
 */
export type Deps = EngineDeps & {
  /** The single writers (Durable Objects) behind every change of alert state. */
  control: AlertControl;
  /** Events API: event_id dedup, the 60 s unfurl cache and Home hashes (one object per team). */
  eventGate?: EventGateNamespace;
};

export function createDeps(config: Config, env: Env, options: EngineDepsOptions = {}): Deps {
  return {
    ...createEngineDeps(config, env, options),
    control: objectControl(env, config),
    ...(env.SLACK_EVENT_GATE ? { eventGate: env.SLACK_EVENT_GATE } : {}),
  };
}
