import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure } from "./slack-errors.ts";

/** `shared`: the channel is shared with another organization (Slack Connect, `is_ext_shared`). */
export type Postable = { ok: true; warning: string | null; shared?: boolean } | { ok: false; reason: string };

const INVITE = "invite it with `/invite @Decipher`, then subscribe again";

/**
 * Whether the bot can post in a channel, asked before a subscription is stored: one that
 * cannot would otherwise be accepted and then paused on its first alert. When Slack cannot
 * say (no `channels:read`, an outage), the subscription is accepted with a warning.
 */
export async function channelPostable(slack: SlackClient, channelId: string): Promise<Postable> {
  try {
    const res = await slack.conversations.info({ channel: channelId });
    const channel = res.channel as
      | { is_archived?: boolean; is_member?: boolean; is_private?: boolean; is_ext_shared?: boolean }
      | undefined;
    const shared = channel?.is_ext_shared === true;
    if (channel?.is_archived)
      return {
        ok: false,
        reason: "This channel is archived, so the bot cannot post alerts here. Nothing was stored.",
      };
    if (channel?.is_member === false && channel.is_private === false) {
      // A public channel the bot can join itself (`channels:join`): joining also lets it read
      // the channel's history, which is how a post whose answer was lost is found again.
      const joined = await slack.conversations.join({ channel: channelId }).then(
        () => true,
        () => false,
      );
      if (joined) return { ok: true, warning: null, shared };
    }
    if (channel?.is_member === false) {
      return {
        ok: false,
        reason: `The bot is not a member of this channel, so it cannot post alerts here: ${INVITE}. Nothing was stored.`,
      };
    }
    return { ok: true, warning: null, shared };
  } catch (error) {
    const failure = classifySlackFailure(error);
    if (failure.code === "channel_not_found" || failure.code === "not_in_channel") {
      return {
        ok: false,
        reason: `The bot cannot see this channel (a private channel it was not invited to): ${INVITE}. Nothing was stored.`,
      };
    }
    return {
      ok: true,
      warning: `:warning: The bot could not check that it can post here (Slack answered ${failure.code}). If no alerts appear, ${INVITE}.`,
    };
  }
}
