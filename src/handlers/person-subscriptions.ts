import type { DigestSchedule } from "../model/digest-schedule.ts";
import type { Subscription } from "../model/subscription.ts";
import { channelsOfUser } from "../slack-api/user-channels.ts";
import { mapLimit } from "../util/map-limit.ts";
import type { Deps } from "../wiring.ts";
import { watchedChannels } from "./watched-channels.ts";

/** Channels read at most for one person (one index call each); Home shows far fewer anyway (100 blocks). */
const MAX_CHANNELS = 40;

export type PersonSubscriptions = {
  subscriptions: Subscription[];
  /** The digest schedules of those channels: the zone their days are counted in. */
  digests: DigestSchedule[];
  /** Channels whose index did not answer. */
  unreadable: number;
  /** Slack could not say which channels the person is in: none is shown. */
  unchecked: boolean;
};

/**
 * Every subscription of the channels the bot watches that this person is in, one index call per
 * channel (never one read per subscription): the KV index names the bot's channels, Slack says
 * which of them the person is in (`users.conversations`: public channels they are in, private
 * ones only where the bot is too), and each ChannelObject answers for its own. What the App Home
 * shows and what a question asked in a DM or the assistant pane is answered from: nobody sees a
 * channel's tests they could not read there. When Slack cannot say, no channel (`unchecked`).
 */
export async function subscriptionsOfPerson(
  deps: Deps,
  teamId: string,
  userId: string,
): Promise<PersonSubscriptions> {
  const none = { subscriptions: [], digests: [], unreadable: 0 };
  const watched = await watchedChannels(deps);
  if (watched.size === 0) return { ...none, unchecked: false };
  const visible = await channelsOfUser(deps.slack, userId);
  if (!visible.ok) {
    console.warn(`users.conversations failed (${visible.code}): no channel shown to the person`);
    return { ...none, unchecked: true };
  }
  const channels = [...watched].filter((c) => visible.channels.has(c)).slice(0, MAX_CHANNELS);
  let unreadable = 0;
  const now = deps.now();
  const found = await mapLimit(channels, 6, (channelId) =>
    deps.control.channelIndex(teamId, channelId, now).catch(() => {
      unreadable++;
      return null;
    }),
  );
  return {
    subscriptions: found.flatMap((index) => index?.entries.map((e) => e.subscription) ?? []),
    digests: found.flatMap((index) => (index?.digest ? [index.digest] : [])),
    unreadable,
    unchecked: false,
  };
}
