import type { PollKind } from "../engine/poll-subscription.ts";
import type { KindWords } from "../messages/kind-words.ts";
import type { Subscription } from "../model/subscription.ts";
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from "../model/subscription-kind.ts";
import { collectionKind } from "./collection/collection-kind.ts";
import type { KindSpec } from "./kind-spec.ts";
import { testKind } from "./test/test-kind.ts";

/** Every kind's spec: a kind in SUBSCRIPTION_KINDS without one here is a compile error. */
const KINDS: { [K in SubscriptionKind]: KindSpec<K> } = { test: testKind, collection: collectionKind };

/**
 * The spec of a kind. Asked with a kind that is one of several (a `Subscription`'s), it types
 * its arguments as any of them: the caller passes what carries that same kind (the
 * subscription, its command), which is the entry `kind` picks.
 */
export const kindSpec = <K extends SubscriptionKind>(kind: K): KindSpec<K> => KINDS[kind] as KindSpec<K>;

/** The spec of the subscription's own kind. */
export const specOf = <S extends Subscription>(sub: S): KindSpec<S["kind"]> => kindSpec(sub.kind);

/** Every kind's words, for the message builders below src/kinds/ (src/kinds/messages.ts). */
export const KIND_WORDS = Object.fromEntries(
  SUBSCRIPTION_KINDS.map((kind) => [kind, KINDS[kind].words]),
) as KindWords;

/**
 * A poll as src/engine/poll-subscription.ts runs it: the subscription's own kind's poll, called
 * from here, so the walk of a failure goes from the engine's poll to the kind's without coming
 * back through the object that runs it.
 */
export const POLL_KIND: PollKind = { poll: (sub, ctx) => specOf(sub).poll(sub, ctx), words: KIND_WORDS };
