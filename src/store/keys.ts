/**
 * Every KV key the bot writes, in one place so their layout is reviewable. Keys are scoped by
 * channel so `/decipher` in one channel can never address another channel's state, and, in
 * multi-workspace mode, by team (`scope` is `<teamId>/`, Config.kvScope): two workspaces share
 * channel ids (Slack Connect channels, the stand-in's seed), never keys. Single-workspace mode
 * has an empty scope, so its keys are what they always were.
 */
import { SUBSCRIPTION_KINDS, type SubscriptionKind } from "../model/subscription-kind.ts";

export const keys = {
  subscription: (channelId: string, kind: SubscriptionKind, id: number, scope = "") =>
    `${scope}sub:${channelId}:${kind}:${id}`,
  /** A team's subscription keys, mirrored by its registry shard on change (src/objects/registry-object.ts). */
  subscriptionIndex: (scope = "") => `${scope}index:subscriptions`,
  digest: (channelId: string, scope = "") => `${scope}digest:${channelId}`,
  weekly: (channelId: string, scope = "") => `${scope}weekly:${channelId}`,
  /** Set (with a TTL) while a workspace refuses charts and tables (src/store/rich-block-store.ts). */
  richBlocksRefused: (teamId: string) => `richblocks-refused:${teamId}`,
} as const;

/** The scope of one team's keys in multi-workspace mode (see above). */
export const teamScope = (teamId: string) => `${teamId}/`;

const SUBSCRIPTION_KEY = new RegExp(
  `^((?:[A-Z0-9]+/)?)sub:([A-Z0-9]+):(${SUBSCRIPTION_KINDS.join("|")}):(\\d+)$`,
);

export function parseSubscriptionKey(
  key: string,
): { channelId: string; kind: SubscriptionKind; id: number; scope: string } | null {
  const match = SUBSCRIPTION_KEY.exec(key);
  if (!match) return null;
  return {
    scope: match[1] as string,
    channelId: match[2] as string,
    kind: match[3] as SubscriptionKind,
    id: Number(match[4]),
  };
}
