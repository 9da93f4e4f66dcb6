import type { Env } from "../config.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { keys } from "../store/keys.ts";

/** Durable Object names. The team id leads, so several workspaces fit without a migration. */
export const objectNames = {
  subscription: (ref: SubscriptionRef) => `${ref.teamId}:${ref.channelId}:${ref.kind}:${ref.id}`,
  channel: (teamId: string, channelId: string) => `${teamId}:${channelId}`,
  registry: () => "registry",
} as const;

/** Where the subscription's readable copy lives in KV (the key names no team: an install serves one workspace). */
export const copyKey = (ref: SubscriptionRef) => keys.subscription(ref.channelId, ref.kind, ref.id);

export const registry = (env: Env) => env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry()));

export const subscriptionObject = (env: Env, ref: SubscriptionRef) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(objectNames.subscription(ref)));

export const subscriptionObjectByName = (env: Env, name: string) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));

export const channelObject = (env: Env, name: string) => env.CHANNELS.get(env.CHANNELS.idFromName(name));
