/** What a subscription watches. */
export type SubscriptionKind = "test" | "collection";

/** The team id of requests that carry none (older payloads); it names the objects of one workspace. */
export const DEFAULT_TEAM = "T0DEFAULT";
