import type { HomeTabView, SectionBlock } from "slack-edge";
import type { SlackMessage } from "./limits.ts";

/**
 * What someone of another organization (in a channel shared with it, Slack Connect) is told,
 * whatever they asked: why they get nothing, never what they typed (src/handlers/outsiders.ts).
 */
export const OUTSIDER_REFUSAL =
  "This workspace's Decipher data is only for its own members; you're in this channel from another organization.";

const sentence = (): SectionBlock => ({
  type: "section",
  text: { type: "plain_text", text: OUTSIDER_REFUSAL },
});

export const outsiderMessage = (): SlackMessage => ({ text: OUTSIDER_REFUSAL, blocks: [sentence()] });

/** Their Home tab: the same sentence, none of the workspace's subscriptions. */
export const outsiderHome = (): HomeTabView => ({ type: "home", blocks: [sentence()] });

/** Told to whoever subscribes a channel shared with another organization (Slack Connect). */
export const SHARED_CHANNEL_NOTE =
  "This channel is shared with another organization: its people will see these alerts too, but only this workspace's members can use their buttons or look anything up.";
