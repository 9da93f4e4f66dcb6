/**
 * What a subscription can watch. Each kind's behaviour is its module in src/kinds/; the list is
 * here so the layers below it (store keys, button values) know every kind's name
 * (docs/architecture.md, "Adding a subscription kind").
 */
export const SUBSCRIPTION_KINDS = ["test", "collection"] as const;

export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];

export const isSubscriptionKind = (value: unknown): value is SubscriptionKind =>
  (SUBSCRIPTION_KINDS as readonly unknown[]).includes(value);

/** The team id of requests that carry none (older payloads); it names the objects of one workspace. */
export const DEFAULT_TEAM = "T0DEFAULT";
