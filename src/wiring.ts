import { AsyncLocalStorage } from "node:async_hooks";
import type { Config, Env } from "./config.ts";
import { createEngineDeps, type EngineDeps, type EngineDepsOptions } from "./engine/engine-deps.ts";
import type { AlertControl } from "./model/alert-control.ts";
import { workspaceObject } from "./objects/addresses.ts";
import type { EventGateNamespace } from "./objects/event-gate-client.ts";
import { objectControl } from "./objects/object-control.ts";
import { forgetTeam } from "./objects/tenancy.ts";
import type { DecipherKeyInfo, TeamCredentials } from "./objects/workspace-object.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "./util/subrequest-budget.ts";

/**
 * The composition root for HTTP: everything a handler may touch. Built once per isolate (see
 * src/app.ts): the clients hold no per-request state, so the one thing that is per request,
 * the subrequest budget, is found through the request that is running (`inRequest`).
 */
export type Deps = EngineDeps & {
  /** The single writers (Durable Objects) behind every change of alert state. */
  control: AlertControl;
  /** Events API: event_id dedup, the 60 s unfurl cache and Home hashes (one object per team). */
  eventGate?: EventGateNamespace;
  /** Multi-workspace mode: the one team these deps act for, and its installation's settings. */
  tenant?: Tenant;
};

/** One installed team's settings, as the Home tab's Connect Decipher form changes them. */
export type Tenant = {
  teamId: string;
  installerUserId: string;
  admins: string[];
  keyInfo(): Promise<DecipherKeyInfo | null>;
  setKey(key: string, userId: string, at: Date): Promise<DecipherKeyInfo>;
  removeKey(): Promise<boolean>;
  setAdmins(userIds: string[]): Promise<void>;
};

function tenantOf(env: Env, credentials: TeamCredentials): Tenant {
  const stub = () => workspaceObject(env, credentials.teamId);
  // Each change is seen by this isolate's next request at once (the credentials cache is dropped).
  const changed = <T>(done: Promise<T>) => done.finally(() => forgetTeam(credentials.teamId));
  return {
    teamId: credentials.teamId,
    installerUserId: credentials.installerUserId,
    admins: credentials.admins,
    keyInfo: () => stub().decipherKeyInfo(),
    setKey: (key, userId, at) => changed(stub().setDecipherKey(key, userId, at.toISOString())),
    removeKey: () => changed(stub().removeDecipherKey()),
    setAdmins: (userIds) => changed(stub().setAdmins(userIds)),
  };
}

const running = new AsyncLocalStorage<SubrequestBudget>();

/**
 * The budget of the request being handled, whichever of the isolate's concurrent requests
 * that is: an `AsyncLocalStorage` follows each request through its awaits and its `waitUntil`
 * work, which a field of the shared clients could not. Work outside any request (a test
 * calling a client directly) draws from `outside`, which is as big as one request's.
 */
class RequestBudget extends SubrequestBudget {
  readonly #outside = new SubrequestBudget(SUBREQUESTS_PER_INVOCATION);

  #current(): SubrequestBudget {
    return running.getStore() ?? this.#outside;
  }
  override get remaining(): number {
    return this.#current().remaining;
  }
  override get used(): number {
    return this.#current().used;
  }
  override has(count = 1): boolean {
    return this.#current().has(count);
  }
  override take(what: string): void {
    this.#current().take(what);
  }
}

/** Runs one request's handling (ack and lazy half) with a budget of its own. */
export function inRequest<T>(handle: () => T): T {
  return running.run(new SubrequestBudget(SUBREQUESTS_PER_INVOCATION), handle);
}

/**
 * Interactive: a person is waiting and `waitUntil` work ends 30 s after the ack, so vendor
 * calls make two attempts, not three (EngineDepsOptions.interactive).
 */
export function createDeps(
  config: Config,
  env: Env,
  options: EngineDepsOptions & { tenant?: TeamCredentials } = {},
): Deps {
  const { tenant, ...engine } = options;
  return {
    ...createEngineDeps(config, env, { interactive: true, budget: new RequestBudget(0), ...engine }),
    control: objectControl(env, config),
    ...(env.SLACK_EVENT_GATE ? { eventGate: env.SLACK_EVENT_GATE } : {}),
    ...(tenant ? { tenant: tenantOf(env, tenant) } : {}),
  };
}
