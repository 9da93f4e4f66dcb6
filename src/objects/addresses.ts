import { type Env, isMultiWorkspace } from "../config.ts";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { keys, teamScope } from "../store/keys.ts";

/** Durable Object names. The team id leads, so several workspaces fit without a migration. */
export const objectNames = {
  subscription: (ref: SubscriptionRef) => `${ref.teamId}:${ref.channelId}:${ref.kind}:${ref.id}`,
  channel: (teamId: string, channelId: string) => `${teamId}:${channelId}`,
  registry: () => "registry",
} as const;

/** The KV scope of a team's keys: its id in multi-workspace mode, none for one workspace (src/store/keys.ts). */
export const kvScopeOf = (env: Pick<Env, "SLACK_CLIENT_ID">, teamId: string | undefined) =>
  isMultiWorkspace(env) && teamId ? teamScope(teamId) : "";

/** Where the subscription's readable copy lives in KV. */
export const copyKey = (env: Env, ref: SubscriptionRef) =>
  keys.subscription(ref.channelId, ref.kind, ref.id, kvScopeOf(env, ref.teamId));

export const registry = (env: Env) => env.REGISTRY.get(env.REGISTRY.idFromName(objectNames.registry()));

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
