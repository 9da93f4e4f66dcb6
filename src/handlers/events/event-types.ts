/**
 * The Events API subscriptions of the bot: registerEvents handles exactly these, the event
 * screen lets exactly these through, and slack/manifest.yml subscribes to exactly these
 * (test/handlers/manifest.test.ts holds the three together).
 */
export const EVENT_TYPES = [
  "link_shared",
  "app_home_opened",
  "app_mention",
  "message_metadata_posted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export const isEventType = (value: unknown): value is EventType =>
  typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);

/** Install lifecycle events: answered before the event screen (src/handlers/install/tenants.ts). */
export const LIFECYCLE_EVENT_TYPES = ["app_uninstalled", "tokens_revoked"] as const;
