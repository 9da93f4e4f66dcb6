import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure } from "./slack-errors.ts";

/**
 * Whether Slack reports the person as a workspace admin or owner (`users.info`). False when
 * Slack cannot say: a right is never granted on a failed lookup.
 */
export async function isWorkspaceAdmin(slack: SlackClient, userId: string): Promise<boolean> {
  if (!userId) return false;
  try {
    const { user } = await slack.users.info({ user: userId });
    return Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner);
  } catch (error) {
    console.warn(`users.info failed (${classifySlackFailure(error).code})`);
    return false;
  }
}
