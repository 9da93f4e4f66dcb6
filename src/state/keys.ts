/**
 * Every KV key the bot writes, in one place so their layout is reviewable. Keys are scoped by
 * channel so `/decipher` in one channel can never address another channel's state.
 */
export type SubscriptionKind = "test" | "collection";

export const keys = {
  subscription: (channelId: string, kind: SubscriptionKind, id: number) => `sub:${channelId}:${kind}:${id}`,
  /** One document listing every subscription key: the cron reads it instead of `list()` (1,000 lists/day on Free). */
  subscriptionIndex: () => "index:subscriptions",
  /** The channels that have a digest schedule, read once per cycle. */
  digestIndex: () => "index:digests",
  digest: (channelId: string) => `digest:${channelId}`,
  lease: (subject: string) => `lease:${subject}`,
  /** The last poll cycle, written hourly (see heartbeat.ts). */
  heartbeat: () => "status:heartbeat",
} as const;

export function parseSubscriptionKey(
  key: string,
): { channelId: string; kind: SubscriptionKind; id: number } | null {
  const match = /^sub:([A-Z0-9]+):(test|collection):(\d+)$/.exec(key);
  if (!match) return null;
  return { channelId: match[1] as string, kind: match[2] as SubscriptionKind, id: Number(match[3]) };
}
