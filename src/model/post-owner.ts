import { isSubscriptionKind, type SubscriptionKind } from "./subscription-kind.ts";

/**
 * Which Durable Object of a channel holds a post's outbox row, as the post's metadata names it
 * (`owner`): Slack's `message_metadata_posted` carries it back, with the channel and the team,
 * so the event reaches the one object that can settle the key.
 */
export type PostOwner =
  | { object: "channel" }
  | { object: "subscription"; kind: SubscriptionKind; id: number };

/** The channel object's outage messages and reports. */
export const CHANNEL_OWNER = "channel";

export const subscriptionOwner = (kind: SubscriptionKind, id: number): string => `${kind}:${id}`;

/** The owner named in a post's metadata; null for anything else (another app's, or an older post's). */
export function parseOwner(value: unknown): PostOwner | null {
  if (value === CHANNEL_OWNER) return { object: "channel" };
  if (typeof value !== "string") return null;
  const match = /^([a-z]+):(\d{1,12})$/.exec(value);
  if (!match || !isSubscriptionKind(match[1])) return null;
  return { object: "subscription", kind: match[1], id: Number(match[2]) };
}
