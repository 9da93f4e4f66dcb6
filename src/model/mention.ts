/**
 * Who a test's alerts ping (`mention:` on `/decipher subscribe test`): one Slack user or one
 * user group, kept as Slack's own token so messages can use it as is.
 *
 * Slack sends mentions in slash-command text escaped only when the command has
 * `should_escape: true` (slack/manifest.yml): `<@U123|alice>` and `<!subteam^S123|@oncall>`.
 * Someone may also type the token by hand, `<@U123>` or `<!subteam^S123>`. Both read the same;
 * the label is dropped, so Slack shows the person's or group's current name.
 */

/** `<@U123>` (a person) or `<!subteam^S123>` (a user group), as stored and posted. */
export type Mention = string;

const USER = /^<@([UW][A-Z0-9]{2,30})(?:\|[^<>|]{0,80})?>$/;
const GROUP = /^<!subteam\^(S[A-Z0-9]{2,30})(?:\|[^<>|]{0,80})?>$/;

/** The stored token for a typed or escaped mention, or null when it is not one. */
export function parseMention(raw: string): Mention | null {
  const text = raw.trim();
  const user = USER.exec(text);
  if (user) return `<@${user[1]}>`;
  const group = GROUP.exec(text);
  if (group) return `<!subteam^${group[1]}>`;
  return null;
}

/** A stored mention, re-checked where it is written into a message: anything else is left out. */
export function mentionToken(value: unknown): Mention | null {
  return typeof value === "string" && parseMention(value) === value ? value : null;
}

/** Each distinct mention once, in first-seen order (an outage names every test's). */
export function distinctMentions(values: readonly unknown[]): Mention[] {
  return [...new Set(values.map(mentionToken).filter((m): m is Mention => m !== null))];
}
