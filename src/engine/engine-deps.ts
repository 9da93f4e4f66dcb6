import type { Config, Env } from "../config.ts";
import { createVendorClient, type VendorClient } from "../decipher/vendor-client.ts";
import { createSlackClient, type SlackClient } from "../slack-api/slack-client.ts";
import { DigestStore } from "../store/digest-store.ts";
import { SubscriptionStore } from "../store/subscription-store.ts";
import { budgetedFetch, SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";

/**
 * What the engine reads and writes through: built per request or per object invocation, so
 * tests can swap any part, and so every call draws from that invocation's budget.
 */
export type EngineDeps = {
  config: Config;
  vendor: VendorClient;
  slack: SlackClient;
  /** Copies in KV as subscribed (src/store/subscription-store.ts); only the objects write them. */
  subscriptions: SubscriptionStore;
  digests: DigestStore;
  kv: KVNamespace;
  /** This invocation's external subrequests: vendor and Slack calls draw from it. */
  budget: SubrequestBudget;
  now: () => Date;
};

export type EngineDepsOptions = {
  /**
   * A person is waiting and `waitUntil` work ends 30 s after the ack: two attempts per
   * vendor call instead of three keep the worst case inside that.
   */
  interactive?: boolean;
  now?: () => Date;
  budget?: SubrequestBudget;
};

export function createEngineDeps(config: Config, env: Env, options: EngineDepsOptions = {}): EngineDeps {
  // A request that is not an object's poll gets the same share as a poll; the objects pass their own.
  const budget = options.budget ?? new SubrequestBudget(SUBREQUESTS_PER_INVOCATION);
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
    subscriptions: new SubscriptionStore(env.STATE, config.kvScope),
    digests: new DigestStore(env.STATE, config.kvScope),
    kv: env.STATE,
    budget,
    now: options.now ?? (() => new Date()),
  };
}
