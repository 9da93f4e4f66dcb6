import type {
  CollectionSubscription,
  FlakyThread,
  Subscription,
  SubscriptionOf,
  TestSubscription,
} from "./subscription.ts";
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from "./subscription-kind.ts";
import type { SnoozeChoice } from "./triage-state.ts";

/**
 * What each kind of subscription is, as data: the part of a kind that the layers below
 * src/kinds/ (the store, the channel index, button values) need. Everything a kind does is
 * its spec in src/kinds/; a kind missing here is a compile error.
 */
type KindFacts<S extends Subscription> = {
  /** A mute stops its polls (a collection: its growth is counted again from the unmute), or not (a test: its ledger counts every failure, as muted). */
  pollsWhileMuted: boolean;
  /** The snooze it offers besides a timed one: until a run passes, until more sessions. */
  untilSnooze: Exclude<SnoozeChoice["kind"], "for">;
  /** Its item's id at Decipher: the last part of its object's, KV key's and buttons' names. */
  id(sub: S): number;
  /** A stored copy (a KV value) holds what this kind needs to be read as one. */
  isStored(value: Record<string, unknown>): boolean;
  /** Without what only its object needs: what the channel's index keeps (`indexCopy`). */
  indexCopy(sub: S): S;
  /** Since when the watched item itself is failing, or null (its polls aside). */
  failingSince(sub: S): string | null;
  /** The ts of every message that alerted about it and may still be its last alert. */
  alertTs(sub: S): (string | null | undefined)[];
};

const test: KindFacts<TestSubscription> = {
  untilSnooze: "until-pass",
  pollsWhileMuted: true,
  id: (sub) => sub.testId,
  isStored: (value) => typeof value.testId === "number" && typeof value.lastRunId === "number",
  indexCopy(sub) {
    const {
      baselineRuns: _b,
      parentEdit: _p,
      owedEdit: _o,
      flakyEdit: _f,
      heldFor: _h,
      parentGone: _g,
      flakyThread,
      recoveredParent: green,
      ...slim
    } = sub;
    // The day's flaky thread and the green parent stay (without their evidence): each may be the
    // last alert, and Home links the flaky thread.
    const withFlaky = flakyThread ? { ...slim, flakyThread: slimFlaky(flakyThread) } : slim;
    const rest = green
      ? {
          ...withFlaky,
          recoveredParent: {
            ...green,
            streak: { ...green.streak, evidence: undefined, firstRun: undefined },
          },
        }
      : withFlaky;
    if (!rest.streak) return rest;
    const { evidence: _e, firstRun, ...streak } = rest.streak;
    // The first run stays for Home's "failing since", without its AI summary.
    return {
      ...rest,
      streak: { ...streak, ...(firstRun ? { firstRun: { ...firstRun, summary: null } } : {}) },
    };
  },
  failingSince: (sub) =>
    sub.streak ? (sub.streak.firstRun?.createdAt ?? sub.streak.lastFailedAt ?? sub.lastChangeAt) : null,
  alertTs: (sub) => [sub.streak?.threadTs, sub.recoveredParent?.ts, sub.flakyThread?.ts, sub.namedByOutage],
};

const collection: KindFacts<CollectionSubscription> = {
  untilSnooze: "until-growth",
  pollsWhileMuted: false,
  id: (sub) => sub.collectionId,
  isStored: (value) => typeof value.collectionId === "number" && typeof value.alertedCount === "number",
  indexCopy(sub) {
    // Its count marks stay: `@Decipher what's broken` measures the day's growth from them.
    const { card: _c, ...rest } = sub;
    return rest;
  },
  failingSince: (sub) => (sub.regressed ? sub.alertedAt : null),
  alertTs: (sub) => [sub.threadTs],
};

const KIND_FACTS: { [K in SubscriptionKind]: KindFacts<SubscriptionOf<K>> } = { test, collection };

/** The facts of the subscription's own kind: `sub.kind` picks the entry made for that kind. */
export const factsOf = <S extends Subscription>(sub: S): KindFacts<S> =>
  KIND_FACTS[sub.kind] as unknown as KindFacts<S>;

/** The facts of a kind named by a value (a stored copy, a button), before there is a subscription. */
export const factsOfKind = (kind: SubscriptionKind): KindFacts<Subscription> =>
  KIND_FACTS[kind] as unknown as KindFacts<Subscription>;

/** Its item's id at Decipher (`testId`, `collectionId`, …). */
export const subscriptionId = (sub: Subscription): number => factsOf(sub).id(sub);

/** The subscriptions of each kind, each list in the order given. */
export function byKind(subs: readonly Subscription[]): { [K in SubscriptionKind]: SubscriptionOf<K>[] } {
  const lists = Object.fromEntries(SUBSCRIPTION_KINDS.map((kind) => [kind, [] as Subscription[]]));
  for (const sub of subs) lists[sub.kind]?.push(sub);
  return lists as { [K in SubscriptionKind]: SubscriptionOf<K>[] };
}

function slimFlaky(flaky: FlakyThread): FlakyThread {
  const { evidence: _e, firstRun, ...rest } = flaky;
  return { ...rest, ...(firstRun ? { firstRun: { ...firstRun, summary: null } } : {}) };
}
