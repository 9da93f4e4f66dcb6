import { isValidZone } from "../util/local-time.ts";
import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure } from "./slack-errors.ts";

type SlackUser = {
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
  tz?: string;
};

/** The person as `users.info` describes them; null when Slack cannot say. */
async function userInfo(slack: SlackClient, userId: string): Promise<SlackUser | null> {
  if (!userId) return null;
  try {
    const { user } = await slack.users.info({ user: userId });
    return (user as SlackUser | undefined) ?? null;
  } catch (error) {
    console.warn(`users.info failed (${classifySlackFailure(error).code})`);
    return null;
  }
}

/**
 * Whether Slack reports the person as a workspace admin or owner (`users.info`). False when
 * Slack cannot say: a right is never granted on a failed lookup.
 */
export async function isWorkspaceAdmin(slack: SlackClient, userId: string): Promise<boolean> {
  const user = await userInfo(slack, userId);
  return Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner);
}

/**
 * Whether Slack reports the person as a guest: `is_restricted` (a multi-channel guest; a
 * single-channel guest is also `is_ultra_restricted`), from Slack's user object reference.
 * Null when Slack cannot say.
 */
export async function isGuest(slack: SlackClient, userId: string): Promise<boolean | null> {
  const user = await userInfo(slack, userId);
  return user ? Boolean(user.is_restricted || user.is_ultra_restricted) : null;
}

/**
 * The person's time zone as Slack has it (`users.info`'s `tz`, an IANA name), so "today" in a
 * question is their today. Null when Slack cannot say or names no zone this runtime knows.
 */
export async function personZone(slack: SlackClient, userId: string): Promise<string | null> {
  const tz = (await userInfo(slack, userId))?.tz;
  return typeof tz === "string" && isValidZone(tz) ? tz : null;
}
