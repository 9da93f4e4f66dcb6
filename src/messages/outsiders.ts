import type { HomeTabView, SectionBlock } from "slack-edge";
import type { SlackMessage } from "./limits.ts";

/**
 * What someone the bot does not answer is told, whatever they asked: why they get nothing,
 * never what they typed (src/handlers/outsiders.ts, src/handlers/guests.ts).
 */
export const OUTSIDER_REFUSAL =
  "This workspace's Decipher data is only for its own members; you're in this channel from another organization.";

/** A Slack guest of the workspace (docs/privacy.md, "Who can change what"). */
export const GUEST_REFUSAL =
  "Decipher answers this workspace's full members only. As a guest, you see the alerts posted in your channels; ask a member for anything else.";

/** One sentence as a message and as a Home tab. */
export type Refusal = { text: string; message: () => SlackMessage; home: () => HomeTabView };

function refusal(text: string): Refusal {
  const sentence = (): SectionBlock => ({ type: "section", text: { type: "plain_text", text } });
  return {
    text,
    message: () => ({ text, blocks: [sentence()] }),
    // Their Home tab: the sentence, none of the workspace's subscriptions.
    home: () => ({ type: "home", blocks: [sentence()] }),
  };
}

export const OUTSIDER = refusal(OUTSIDER_REFUSAL);
export const GUEST = refusal(GUEST_REFUSAL);

/** Told to whoever subscribes a channel shared with another organization (Slack Connect). */
export const SHARED_CHANNEL_NOTE =
  "This channel is shared with another organization: its people will see these alerts too, but only this workspace's members can use their buttons or look anything up.";
