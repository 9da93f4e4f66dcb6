import type { AppHomeOpenedEvent } from "slack-edge";
import { homeView } from "../../kinds/messages.ts";
import { homeClockLine } from "../../messages/clock-pace.ts";
import { connectDecipherBlocks } from "../../messages/connect-decipher.ts";
import { governPace } from "../../model/plan-governor.ts";
import type { Subscription } from "../../model/subscription.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { type EventGate, eventGate } from "../../objects/event-gate-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { channelsOfUser } from "../../slack-api/user-channels.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";
import { watchedChannels } from "../watched-channels.ts";

/** Channels a Home view reads at most (one call each); a view shows far fewer anyway (100 blocks). */
const MAX_CHANNELS = 40;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Every subscription of the channels the bot watches that this person is in, one index call per
 * channel (never one read per subscription): the KV index names the bot's channels, Slack says
 * which of them the person is in, and each ChannelObject answers for its own. When Slack cannot
 * say, no channel is shown (`unchecked`).
 */
async function readSubscriptions(
  deps: Deps,
  teamId: string,
  userId: string,
): Promise<{ subscriptions: Subscription[]; unreadable: number; unchecked: boolean }> {
  const watched = await watchedChannels(deps);
  if (watched.size === 0) return { subscriptions: [], unreadable: 0, unchecked: false };
  const visible = await channelsOfUser(deps.slack, userId);
  if (!visible.ok) {
    console.warn(`users.conversations failed (${visible.code}): Home shows no channel`);
    return { subscriptions: [], unreadable: 0, unchecked: true };
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
    unreadable,
    unchecked: false,
  };
}

/**
 * `app_home_opened` (Home tab) → `views.publish` of the dashboard, unless this person's Home
 * already shows exactly that view (its hash is kept in the team's SlackEventGate): opening
 * the tab again costs KV reads, not a publish.
 */
export async function handleAppHomeOpened(
  event: AppHomeOpenedEvent,
  deps: Deps,
  gate: EventGate,
  teamId: string | null,
  teamUrl: string | null,
): Promise<void> {
  if (event.tab !== "home") return;
  await publishHome(deps, gate, event.user, teamId || DEFAULT_TEAM, teamUrl, false);
}

/** After a change made from the Home tab (Unmute): the person sees it at once. */
export async function refreshHome(
  deps: Deps,
  userId: string,
  teamId: string | undefined,
  teamUrl: string | null,
): Promise<void> {
  const gate = deps.eventGate && teamId ? eventGate(deps.eventGate, teamId, deps.budget) : null;
  await publishHome(deps, gate, userId, teamId || DEFAULT_TEAM, teamUrl, true);
}

async function publishHome(
  deps: Deps,
  gate: EventGate | null,
  userId: string,
  teamId: string,
  teamUrl: string | null,
  always: boolean,
): Promise<void> {
  const [{ subscriptions, unreadable, unchecked }, health] = await Promise.all([
    readSubscriptions(deps, teamId, userId),
    deps.control.health(teamId).catch(() => null),
  ]);
  const home = homeView({
    subscriptions,
    appUrl: deps.config.decipherAppUrl,
    teamUrl,
    unreadable,
    unchecked,
    clockLine: health ? homeClockLine(governPace(deps.config.plan, health.subscriptions)) : null,
  });
  // Multi-workspace mode: the team's Decipher connection comes first (src/handlers/install/).
  const view = deps.tenant
    ? {
        ...home,
        blocks: [
          ...(connectDecipherBlocks(await deps.tenant.keyInfo()) as typeof home.blocks),
          ...home.blocks,
        ].slice(0, 100),
      }
    : home;
  const hash = await sha256(JSON.stringify(view));
  if (!always && gate && (await gate.homeUnchanged(userId, hash))) return;
  try {
    await deps.slack.views.publish({ user_id: userId, view });
    await gate?.homePublished(userId, hash);
  } catch (error) {
    console.warn(`views.publish failed (${classifySlackFailure(error).code})`);
  }
}
