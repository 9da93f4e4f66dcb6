/**
 * Every KV key the bot writes, in one place so their layout is reviewable. Keys are scoped by
 * channel so `/decipher` in one channel can never address another channel's state.
 */
import type { SubscriptionKind } from "../model/subscription-kind.ts";

export const keys = {
  subscription: (channelId: string, kind: SubscriptionKind, id: number) => `sub:${channelId}:${kind}:${id}`,
  /** Every subscription key, mirrored by the registry object on change (src/objects/registry-object.ts). */
  subscriptionIndex: () => "index:subscriptions",
  digest: (channelId: string) => `digest:${channelId}`,
  weekly: (channelId: string) => `weekly:${channelId}`,
  /** Set (with a TTL) while a workspace refuses charts and tables (src/store/rich-block-store.ts). */
  richBlocksRefused: (teamId: string) => `richblocks-refused:${teamId}`,
} as const;

export function parseSubscriptionKey(
  key: string,
): { channelId: string; kind: SubscriptionKind; id: number } | null {
  const match = /^sub:([A-Z0-9]+):(test|collection):(\d+)$/.exec(key);
  if (!match) return null;
  return { channelId: match[1] as string, kind: match[2] as SubscriptionKind, id: Number(match[3]) };
}
