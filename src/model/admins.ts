import type { TriageAction } from "./triage-state.ts";

/**
 * Who may change what a channel gets. ADMIN_USER_IDS, when set, names the only people who may
 * change a channel's subscriptions and digest, or snooze and mute its alerts (both silence the
 * channel for everyone); empty, it lets everyone. Acknowledge is open to all.
 */

/** Whether `userId` may make a change reserved to admins (everyone may when none are named). */
export function isAdmin(admins: ReadonlySet<string>, userId: string): boolean {
  return admins.size === 0 || admins.has(userId);
}

/** The sentence refusing a triage action to someone who is not an admin; null when it is allowed. */
export function triageRefusal(admins: ReadonlySet<string>, action: TriageAction): string | null {
  if (action.type === "acknowledge" || isAdmin(admins, action.userId)) return null;
  const verb = action.type;
  return `Only the bot's admins can ${verb} alerts in this channel, since it silences them for everyone. Acknowledge is open to all; ask an admin to ${verb} it.`;
}

/** The sentence refusing a `/decipher` change to someone who is not an admin. */
export const SUBSCRIPTION_CHANGE_REFUSAL =
  "Only the bot's admins can change what this channel watches. Ask one of them, or use `/decipher list` and `/decipher status`.";
