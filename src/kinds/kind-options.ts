import type { SubscriptionOf } from "../model/subscription.ts";
import type { SubscriptionKind } from "../model/subscription-kind.ts";
import { type CollectionOptions, collectionOptions } from "./collection/options.ts";
import { type TestOptionsGiven, testOptions } from "./test/options.ts";

/*
 * A kind's options: the part of its spec (src/kinds/kind-spec.ts) that reading `/decipher
 * subscribe` needs, apart so the command's parser does not load the engine.
 */

/**
 * What `/decipher subscribe <kind> <id> …` sets, by kind: the part of the command its options
 * fill (`options` of a test, `growth` and `mention` of a collection).
 */
export type SubscribeOptions = { test: TestOptionsGiven; collection: CollectionOptions };

/**
 * `given`: the options the command names (none for a bare `subscribe test 101`). Subscribing
 * again changes those and keeps the others.
 */
export type SubscribeCommandOf<K extends SubscriptionKind> = {
  action: "subscribe";
  kind: K;
  id: number;
  /** Every id the command names (`subscribe test 101 102`), `id` first; the same options for each. */
  ids: readonly number[];
  given: readonly string[];
} & SubscribeOptions[K];

/** `/decipher subscribe …` of any kind. */
export type SubscribeCommand = { [K in SubscriptionKind]: SubscribeCommandOf<K> }[SubscriptionKind];

export type KindOptions<K extends SubscriptionKind> = {
  /** The options after `/decipher subscribe <kind> <id>`; throws a `CommandInputError` naming the one at fault. */
  parseOptions(tokens: readonly string[]): SubscribeOptions[K];
  /** The options a subscription has: a bare `subscribe` keeps them. */
  optionsOf(sub: SubscriptionOf<K>): SubscribeOptions[K];
  /** Its options with those `names` (typed again) taken from `given`: subscribing again. */
  changedOptions(
    sub: SubscriptionOf<K>,
    given: SubscribeOptions[K],
    names: readonly string[],
  ): SubscribeOptions[K];
  /** The options given are the ones it has: subscribing again changes nothing. */
  sameOptions(sub: SubscriptionOf<K>, given: SubscribeOptions[K]): boolean;
};

const KIND_OPTIONS: { [K in SubscriptionKind]: KindOptions<K> } = {
  test: testOptions,
  collection: collectionOptions,
};

/** The options of a kind (the same as `kindSpec(kind)`'s, in src/kinds/kinds.ts). */
export const kindOptions = <K extends SubscriptionKind>(kind: K): KindOptions<K> =>
  KIND_OPTIONS[kind] as KindOptions<K>;
