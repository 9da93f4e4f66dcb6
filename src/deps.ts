import type { SlackAPIClient } from "slack-edge";
import type { Config, Env } from "./env.ts";
import { objectControl } from "./objects/control.ts";
import { createSlackClient } from "./slack/client.ts";
import type { EventGateNamespace } from "./slack/events/gate.ts";
import type { AlertControl } from "./state/alert-control.ts";
import { DigestStore } from "./state/digests.ts";
import { SubscriptionStore } from "./state/subscriptions.ts";
import { budgetedFetch, SubrequestBudget } from "./util/subrequest-budget.ts";
import { createVendorClient, type VendorClient } from "./vendor/client.ts";

/**
 * Everything a handler may touch: the composition root, built once per request (or per
 * object invocation) so tests can swap any part.
 */
export type Deps = {
  config: Config;
  vendor: VendorClient;
  slack: SlackAPIClient;
  /** Readable copies in KV: lists and status read them; only the objects write them. */
  subscriptions: SubscriptionStore;
  digests: DigestStore;
  /** The single writers (Durable Objects) behind every change of alert state. */
  control: AlertControl;
  kv: KVNamespace;
  /** This invocation's external subrequests: vendor and Slack calls draw from it. */
  budget: SubrequestBudget;
  now: () => Date;
  /** Events API: event_id dedup, the 60 s unfurl cache and Home hashes (one object per team). */
  eventGate?: EventGateNamespace;
};

export type DepsOptions = {
  /**
   * A person is waiting and `waitUntil` work ends 30 s after the ack: two attempts per
   * vendor call instead of three keep the worst case inside that.
   */
  interactive?: boolean;
  now?: () => Date;
  budget?: SubrequestBudget;
};

/** Generous for a request that is not an object's poll; the objects pass their own. */
const REQUEST_BUDGET = 45;

export function createDeps(config: Config, env: Env, options: DepsOptions = {}): Deps {
  const budget = options.budget ?? new SubrequestBudget(REQUEST_BUDGET);
  return {
    config,
    vendor: createVendorClient({
      baseUrl: config.decipherApiUrl,
      apiKey: config.decipherApiKey,
      timeoutMs: config.vendorTimeoutMs,
      fetch: budgetedFetch(budget),
      ...(options.interactive ? { retry: { attempts: 2 } } : {}),
    }),
    slack: createSlackClient(config, { budget, timeoutMs: config.slackTimeoutMs }),
    subscriptions: new SubscriptionStore(env.STATE),
    digests: new DigestStore(env.STATE),
    control: objectControl(env, config),
    kv: env.STATE,
    budget,
    now: options.now ?? (() => new Date()),
    ...(env.SLACK_EVENT_GATE ? { eventGate: env.SLACK_EVENT_GATE } : {}),
  };
}
