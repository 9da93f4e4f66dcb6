import type { Config, Env } from "../config.ts";
import { HISTORY_TIERS, type HistoryPace } from "../slack-api/find-posted.ts";
import { describeError } from "../util/describe-error.ts";
import { workspaceObject } from "./addresses.ts";

/**
 * The workspace's history turns, kept by its WorkspaceObject: in the distributed tier Slack
 * answers one `conversations.history` and one `.replies` a minute for the whole workspace, so
 * the objects of its subscriptions and channels take turns there instead of each keeping its
 * own minute. None in a tier without spacing (Tier 3 leaves room for every object's reads).
 */
export function historyPace(
  env: Env,
  team: Pick<Config, "slackHistoryTier">,
  teamId: string,
  now: Date,
): HistoryPace | undefined {
  const tier = HISTORY_TIERS[team.slackHistoryTier];
  if (tier.spacingMs === 0) return undefined;
  return async (method) => {
    try {
      return await workspaceObject(env, teamId).historyTurn(method, now.getTime(), tier.spacingMs);
    } catch (error) {
      // Without the shared turn, Slack's own 429 and its Retry-After still pace the read.
      console.warn(`history pace: no turn from the workspace: ${describeError(error)}`);
      return 0;
    }
  };
}
