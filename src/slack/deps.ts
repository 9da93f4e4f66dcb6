import type { SlackAPIClient } from "slack-edge";
import type { Config } from "../env.ts";
import { DigestStore } from "../state/digests.ts";
import { SubscriptionStore } from "../state/subscriptions.ts";
import { createVendorClient, type VendorClient } from "../vendor/client.ts";
import { createSlackClient } from "./client.ts";
import type { EventGateNamespace } from "./events/gate.ts";

/** Everything a handler may touch, built once per request so tests can swap any part. */
export type Deps = {
  config: Config;
  vendor: VendorClient;
  slack: SlackAPIClient;
  subscriptions: SubscriptionStore;
  digests: DigestStore;
  kv: KVNamespace;
  now: () => Date;
  /** Events API dedup, unfurl cache, Home hashes (one SlackEventGate per team); optional. */
  eventGate?: EventGateNamespace;
};

export type DepsOptions = {
  /**
   * A person is waiting and `waitUntil` work ends 30 s after the ack: two attempts per
   * vendor call instead of three keep the worst case inside that.
   */
  interactive?: boolean;
  now?: () => Date;
  eventGate?: EventGateNamespace | undefined;
};

export function createDeps(config: Config, kv: KVNamespace, options: DepsOptions = {}): Deps {
  return {
    config,
    vendor: createVendorClient({
      baseUrl: config.decipherApiUrl,
      apiKey: config.decipherApiKey,
      timeoutMs: config.vendorTimeoutMs,
      ...(options.interactive ? { retry: { attempts: 2 } } : {}),
    }),
    slack: createSlackClient(config),
    subscriptions: new SubscriptionStore(kv),
    digests: new DigestStore(kv),
    kv,
    now: options.now ?? (() => new Date()),
    ...(options.eventGate ? { eventGate: options.eventGate } : {}),
  };
}
