import type { VendorClient } from "../decipher/vendor-client.ts";
import type { Who } from "../engine/baseline.ts";
import type { SubscriptionOf } from "../model/subscription.ts";
import type { SubscriptionKind } from "../model/subscription-kind.ts";
import type { CollectionOptions } from "./collection/options.ts";
import type { TestOptionsGiven } from "./test/options.ts";

/**
 * What `/decipher subscribe <kind> <id> …` sets, by kind: the part of the command its options
 * fill (`options` of a test, `growth` and `mention` of a collection).
 */
export type SubscribeOptions = { test: TestOptionsGiven; collection: CollectionOptions };

/** `optionsGiven` is false for a bare `subscribe test 101`: subscribing again keeps the options set. */
export type SubscribeCommandOf<K extends SubscriptionKind> = {
  action: "subscribe";
  kind: K;
  id: number;
  optionsGiven: boolean;
} & SubscribeOptions[K];

/**
 * Everything one kind of subscription does, in one module per kind (src/kinds/test/,
 * src/kinds/collection/), held complete by the Record in src/kinds/kinds.ts. The rest of the
 * code asks the spec of a subscription's kind rather than compare kinds
 * (docs/architecture.md, "Adding a subscription kind").
 */
export interface KindSpec<K extends SubscriptionKind> {
  readonly kind: K;
  /** The options after `/decipher subscribe <kind> <id>`; throws a `CommandInputError` naming the one at fault. */
  parseOptions(tokens: readonly string[]): SubscribeOptions[K];
  /** The options a subscription has: a bare `subscribe` keeps them. */
  optionsOf(sub: SubscriptionOf<K>): SubscribeOptions[K];
  /** The options given are the ones it has: subscribing again changes nothing. */
  sameOptions(sub: SubscriptionOf<K>, given: SubscribeOptions[K]): boolean;
  /** The subscription as subscribing starts it, from Decipher's state now (nothing before is replayed). */
  baseline(vendor: VendorClient, command: SubscribeCommandOf<K>, who: Who): Promise<SubscriptionOf<K>>;
}
