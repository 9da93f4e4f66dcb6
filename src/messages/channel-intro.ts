import { subscriptionId } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { context, section } from "./elements.ts";
import { type KindWords, wordsOf } from "./kind-words.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { code } from "./mrkdwn.ts";

/** Names the introduction's first block: what tells it apart from the channel's alerts. */
export const CHANNEL_INTRO_BLOCK_ID = "decipher_intro";

/**
 * The one message a channel gets when its first subscription is made (Slack's Marketplace
 * guidelines ask an app to say in a channel who set it up there and how to change or stop
 * it): who subscribed, to what, and the commands that show, change and stop it. Nothing in it
 * depends on when it is read.
 */
export function channelIntroMessage(
  words: KindWords,
  subscription: Subscription,
  appUrl: string,
): SlackMessage {
  const said = wordsOf(words, subscription);
  const who = subscription.createdBy ? `<@${subscription.createdBy}>` : "Someone";
  const lead = `:wave: ${who} set up Decipher alerts in this channel, starting with ${said.label(subscription, appUrl)}.`;
  const stop = code(`/decipher unsubscribe ${subscription.kind} ${subscriptionId(subscription)}`);
  const how = `${code("/decipher list")} shows everything this channel watches; subscribing again with other options changes one, and ${stop} stops this one.`;
  return fitMessage({
    text: lead.replace(/<[^|>@]*\|([^>]*)>/g, "$1"),
    blocks: [{ ...section(lead), block_id: CHANNEL_INTRO_BLOCK_ID }, context(how)],
  });
}
