/**
 * One line of `npm run doctor` (tools/doctor.ts) and `/decipher doctor`: what was checked, how
 * it stands, and what to do when it fails (src/messages/doctor-lines.ts writes them).
 */
export type DoctorLine = { check: string; ok: boolean; text: string; fix?: string };

/** The doctor's last line, in the terminal and in Slack alike. */
export const doctorVerdict = (lines: readonly DoctorLine[]) =>
  lines.every((l) => l.ok) ? "All checks passed." : `${lines.filter((l) => !l.ok).length} check(s) failed.`;

/** What `auth.test` says of the token: its workspace and the scopes Slack granted it. */
export type TokenCheck =
  | { ok: true; teamId: string; team: string; botUserId: string; scopes: string[] | null }
  | { ok: false; code: string };

/** Whether the bot can post in a channel it has subscriptions in, as `conversations.info` says. */
export type ChannelCheck = {
  channelId: string;
  state: "member" | "not_member" | "archived" | "gone" | "unknown";
  /** Slack's error, when it answered one. */
  code?: string;
};
