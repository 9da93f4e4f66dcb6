import type { Env } from "../env.ts";
import type { SubscriptionRef } from "../state/alert-control.ts";
import { objectNames } from "./names.ts";

export const registry = (env: Env) => env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry()));

export const subscriptionObject = (env: Env, ref: SubscriptionRef) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(objectNames.subscription(ref)));

export const subscriptionObjectByName = (env: Env, name: string) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));

export const channelObject = (env: Env, name: string) => env.CHANNELS.get(env.CHANNELS.idFromName(name));
