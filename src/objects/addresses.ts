import { type Env, isMultiWorkspace } from "../config.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { keys, teamScope } from "../store/keys.ts";

const SHARD_PREFIX = "registry:";

/** Durable Object names. The team id leads, so several workspaces fit without a migration. */
export const objectNames = {
  subscription: (ref: SubscriptionRef) => `${ref.teamId}:${ref.channelId}:${ref.kind}:${ref.id}`,
  channel: (teamId: string, channelId: string) => `${teamId}:${channelId}`,
  /** A team's registry shard (src/objects/registry-object.ts). */
  registry: (teamId: string) => `${SHARD_PREFIX}${teamId}`,
  /** The registry's root: the directory of shards, and the one registry of before them. */
  registryDirectory: () => "registry",
} as const;

/** The team of a registry shard's name; null for the directory. */
export const shardTeamOf = (name: string) =>
  name.startsWith(SHARD_PREFIX) ? name.slice(SHARD_PREFIX.length) : null;

/** The KV scope of a team's keys: its id in multi-workspace mode, none for one workspace (src/store/keys.ts). */
export const kvScopeOf = (env: Pick<Env, "SLACK_CLIENT_ID">, teamId: string | undefined) =>
  isMultiWorkspace(env) && teamId ? teamScope(teamId) : "";

/** Where the subscription's readable copy lives in KV. */
export const copyKey = (env: Env, ref: SubscriptionRef) =>
  keys.subscription(ref.channelId, ref.kind, ref.id, kvScopeOf(env, ref.teamId));

/** The team's registry shard: its subscriptions' leases, digest times and health figures. */
export const registry = (env: Env, teamId: string) =>
  env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry(teamId)));

/** The directory of registry shards: what the cron reads first, and what `/health` adds up. */
export const registryDirectory = (env: Env) =>
  env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registryDirectory()));

export const subscriptionObject = (env: Env, ref: SubscriptionRef) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(objectNames.subscription(ref)));

export const subscriptionObjectByName = (env: Env, name: string) =>
  env.SUBSCRIPTIONS.get(env.SUBSCRIPTIONS.idFromName(name));

export const channelObject = (env: Env, name: string) => env.CHANNELS.get(env.CHANNELS.idFromName(name));

/** One per Slack team in multi-workspace mode: its installation and Decipher key (src/objects/workspace-object.ts). */
export const workspaceObject = (env: Env, teamId: string) =>
  env.WORKSPACES.get(env.WORKSPACES.idFromName(`team:${teamId}`));

/** The OAuth states of Add to Slack, all in one object (src/objects/install-state-object.ts). */
export const installStates = (env: Env) =>
  env.INSTALL_STATES.get(env.INSTALL_STATES.idFromName("install-states"));
