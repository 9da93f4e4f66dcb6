import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure } from "./slack-errors.ts";

/** Pages of `users.conversations` read at most (999 channels each). */
const MAX_PAGES = 5;
/** The method's largest page: "Must be an integer with a max value of 999" (Slack's reference). */
const PAGE_LIMIT = 999;

export type UserChannels = { ok: true; channels: ReadonlySet<string> } | { ok: false; code: string };

/**
 * The channels a person is in, as the bot's token sees them (`users.conversations`: public
 * channels they are in, private ones only where the bot is too), so the App Home shows a
 * person only the channels they can read. A failure (no `channels:read`/`groups:read`, Slack
 * down) answers `ok: false`: the caller shows nothing rather than everything.
 */
export async function channelsOfUser(slack: SlackClient, userId: string): Promise<UserChannels> {
  const channels = new Set<string>();
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await slack.users.conversations({
        user: userId,
        types: ["public_channel", "private_channel"],
        exclude_archived: true,
        limit: PAGE_LIMIT,
        ...(cursor ? { cursor } : {}),
      });
      for (const c of res.channels ?? []) if (c.id) channels.add(c.id);
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return { ok: true, channels };
  } catch (error) {
    return { ok: false, code: classifySlackFailure(error).code };
  }
}
