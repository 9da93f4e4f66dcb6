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
  "message",
  "assistant_thread_started",
  "assistant_thread_context_changed",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * How the manifest's `bot_events` names an event type where it differs from the envelope's
 * `event.type`: a DM to the app arrives as `message` (with `channel_type: "im"`), subscribed to
 * as `message.im` (messages in channels are not subscribed to at all).
 */
export const MANIFEST_NAMES: Partial<Record<EventType, string>> = { message: "message.im" };

export const isEventType = (value: unknown): value is EventType =>
  typeof value === "string" && (EVENT_TYPES as readonly string[]).includes(value);

/** Install lifecycle events: answered before the event screen (src/handlers/install/tenants.ts). */
export const LIFECYCLE_EVENT_TYPES = ["app_uninstalled", "tokens_revoked"] as const;
