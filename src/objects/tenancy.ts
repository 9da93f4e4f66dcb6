import type { Config, Env } from "../config.ts";
import { keys, teamScope } from "../store/keys.ts";
import { describeError } from "../util/describe-error.ts";
import { channelObject, objectNames, registry, subscriptionObject, workspaceObject } from "./addresses.ts";
import type { TeamCredentials, UninstallEvent } from "./workspace-object.ts";

/**
 * Which credentials act for which team: the one place a Slack token and a Decipher key are
 * chosen. Single-workspace mode: the secrets, whatever the team. Multi-workspace mode: the
 * team's own installation (its WorkspaceObject), so a request, a poll or a click for team A
 * can only ever be given A's token and key, and a team that never installed gets none.
 */

/** Stands in for a key not connected yet: handlers answer "connect Decipher" before any vendor call. */
export const NO_DECIPHER_KEY = "decipher-key-not-connected";

/**
 * A few seconds of reuse per isolate: every Slack request would otherwise wake the team's
 * object. Never past the token's own expiry margin; a change made in this isolate (key set or
 * removed, uninstall) drops the entry at once, other isolates follow within this time.
 */
const CACHE_MS = 30_000;
const cache = new Map<string, { credentials: TeamCredentials | null; until: number }>();

export function forgetTeam(teamId: string): void {
  cache.delete(teamId);
}

export async function teamCredentials(
  env: Env,
  teamId: string,
  now: number = Date.now(),
): Promise<TeamCredentials | null> {
  const hit = cache.get(teamId);
  if (hit && hit.until > now) return hit.credentials;
  const credentials = await workspaceObject(env, teamId).credentials(now);
  const until = Math.min(now + CACHE_MS, credentials ? credentials.goodUntil - 60_000 : now + CACHE_MS);
  if (cache.size > 1000) cache.clear();
  cache.set(teamId, { credentials, until });
  return credentials;
}

/** The configuration that acts for one installed team (its token, key, admins and KV scope). */
export function configFor(config: Config, credentials: TeamCredentials): Config {
  return {
    ...config,
    slackBotToken: credentials.botToken,
    decipherApiKey: credentials.decipherKey ?? NO_DECIPHER_KEY,
    adminUserIds: new Set(credentials.admins),
    kvScope: teamScope(credentials.teamId),
  };
}

/**
 * For the objects' polls, digests and clicks: the configuration of the team the object
 * belongs to, or null when that team is not installed or has no Decipher key (nothing to
 * poll with). Single-workspace mode: `config` as given.
 */
export async function teamConfig(
  env: Env,
  config: Config,
  teamId: string | undefined,
): Promise<Config | null> {
  if (!config.install) return config;
  if (!teamId) return null;
  const credentials = await teamCredentials(env, teamId);
  if (!credentials?.decipherKey) return null;
  return configFor(config, credentials);
}

/**
 * Uninstall (`app_uninstalled`, `tokens_revoked`): the installation and Decipher key first, so
 * nothing polls or answers for the team from here on, then every subscription (each object
 * deletes its storage, KV copy and registry entry), every channel object, every KV key in the
 * team's scope, its event gate, and its registry shard with its row of the shards' directory. Safe to run twice: a reinstall starts from nothing.
 * `event`, the uninstall event's id and time: an install made after it is not undone by a late
 * or retried copy (WorkspaceObject.purge).
 */
export async function purgeTeam(env: Env, teamId: string, at: Date, event: UninstallEvent): Promise<void> {
  const installation = await workspaceObject(env, teamId).purge(event);
  if (installation === "kept") {
    console.log(`uninstall of ${teamId} ignored: installed again since`);
    return;
  }
  forgetTeam(teamId);
  const shard = registry(env, teamId);
  const refs = (await shard.list()).map((e) => e.ref);
  const channels = new Set([...refs.map((ref) => ref.channelId), ...(await shard.channelsEver())]);
  let failed = 0;
  for (const ref of refs)
    await subscriptionObject(env, ref)
      .remove(ref)
      .catch(() => failed++);
  const scoped: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.STATE.list({ prefix: teamScope(teamId), ...(cursor ? { cursor } : {}) });
    for (const key of page.keys) {
      scoped.push(key.name);
      const channel = /(?:digest|weekly|sub):([A-Z0-9]+)/.exec(key.name.slice(teamScope(teamId).length));
      if (channel?.[1]) channels.add(channel[1]);
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  for (const channelId of channels) {
    await channelObject(env, objectNames.channel(teamId, channelId))
      .purge(teamId, channelId, at.toISOString())
      .catch(() => failed++);
  }
  for (const key of [...scoped, keys.richBlocksRefused(teamId)]) await env.STATE.delete(key);
  // Last: the removals and digests turned off above report to the shard on their way.
  await shard.purge().catch((error: unknown) => {
    failed++;
    console.warn(`registry shard purge failed: ${describeError(error)}`);
  });
  if (env.SLACK_EVENT_GATE) {
    const gate = env.SLACK_EVENT_GATE.get(env.SLACK_EVENT_GATE.idFromName(`team:${teamId}`));
    await gate.purge().catch((error: unknown) => {
      failed++;
      console.warn(`event gate purge failed: ${describeError(error)}`);
    });
  }
  console.log(
    `uninstalled ${teamId}: ${installation === "purged" ? "installation" : "no installation"}, ${refs.length} subscription(s), ${channels.size} channel(s), ${scoped.length} KV key(s) removed${failed ? `; ${failed} step(s) failed` : ""}`,
  );
}
