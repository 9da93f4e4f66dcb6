import type { Subscription } from "../model/subscription.ts";
import { parseSubscriptionKey } from "../store/keys.ts";
import { mapLimit } from "../util/map-limit.ts";
import type { Deps } from "../wiring.ts";

/** The channels the bot watches, from the KV index of subscriptions (one list, no object call). */
export async function watchedChannels(deps: Pick<Deps, "subscriptions">): Promise<Set<string>> {
  return new Set(
    (await deps.subscriptions.listKeys())
      .map((key) => parseSubscriptionKey(key)?.channelId)
      .filter((c): c is string => c !== undefined),
  );
}

/** Channels `/decipher status` reads at most for pauses elsewhere (one index call each). */
const MAX_OTHER_CHANNELS = 20;

/**
 * The paused subscriptions of the team's other channels, for `/decipher status` in any
 * channel: asked only when the team's shard counts more pauses than this channel shows.
 */
export async function pausedElsewhere(
  deps: Pick<Deps, "subscriptions" | "control">,
  teamId: string,
  channelId: string,
  now: Date,
): Promise<Subscription[]> {
  const others = [...(await watchedChannels(deps))].filter((c) => c !== channelId);
  const found = await mapLimit(others.slice(0, MAX_OTHER_CHANNELS), 6, (c) =>
    deps.control.channelIndex(teamId, c, now).catch(() => null),
  );
  return found.flatMap((index) => index?.entries.map((e) => e.subscription).filter((s) => s.paused) ?? []);
}
