import type { ChannelCheck, TokenCheck } from "../model/doctor-line.ts";
import type { SlackClient } from "./slack-client.ts";
import { classifySlackFailure } from "./slack-errors.ts";

/**
 * The token as Slack sees it: `auth.test`, and the `x-oauth-scopes` header Slack names the
 * granted scopes in (null when the answer has none). Never throws.
 */
export async function checkToken(slack: SlackClient): Promise<TokenCheck> {
  try {
    const res = await slack.auth.test();
    const header = res.headers.get("x-oauth-scopes");
    return {
      ok: true,
      teamId: res.team_id ?? "",
      team: res.team ?? "",
      botUserId: res.user_id ?? "",
      scopes:
        header === null
          ? null
          : header
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean),
    };
  } catch (error) {
    return { ok: false, code: classifySlackFailure(error).code };
  }
}

/** Whether the bot can post in a channel it has subscriptions in, as `conversations.info` says. */

export async function checkChannel(slack: SlackClient, channelId: string): Promise<ChannelCheck> {
  try {
    const res = await slack.conversations.info({ channel: channelId });
    const channel = res.channel as { is_archived?: boolean; is_member?: boolean } | undefined;
    if (channel?.is_archived) return { channelId, state: "archived" };
    return { channelId, state: channel?.is_member === false ? "not_member" : "member" };
  } catch (error) {
    const code = classifySlackFailure(error).code;
    if (code === "channel_not_found" || code === "not_in_channel") return { channelId, state: "gone", code };
    return { channelId, state: "unknown", code };
  }
}
