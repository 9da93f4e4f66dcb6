import type { AppHomeOpenedEvent } from "slack-edge";
import { connectDecipherBlocks } from "../../messages/connect-decipher.ts";
import { homeView } from "../../messages/home-view.ts";
import type { Subscription } from "../../model/subscription.ts";
import { type EventGate, eventGate } from "../../objects/event-gate-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import { mapLimit } from "../../util/map-limit.ts";
import type { Deps } from "../../wiring.ts";

/** A Home view lists at most this many subscriptions (KV reads per open stay bounded). */
const MAX_SUBSCRIPTIONS = 300;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function readSubscriptions(deps: Deps): Promise<{ subscriptions: Subscription[]; unreadable: number }> {
  const keys = (await deps.subscriptions.listKeys()).slice(0, MAX_SUBSCRIPTIONS);
  let unreadable = 0;
  const found = await mapLimit(keys, 6, (key) =>
    deps.subscriptions.getByKey(key).catch(() => {
      unreadable++;
      return null;
    }),
  );
  return { subscriptions: found.filter((s): s is Subscription => s !== null), unreadable };
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
  teamUrl: string | null,
): Promise<void> {
  if (event.tab !== "home") return;
  await publishHome(deps, gate, event.user, teamUrl, false);
}

/** After a change made from the Home tab (Unmute): the person sees it at once. */
export async function refreshHome(
  deps: Deps,
  userId: string,
  teamId: string | undefined,
  teamUrl: string | null,
): Promise<void> {
  const gate = deps.eventGate && teamId ? eventGate(deps.eventGate, teamId, deps.budget) : null;
  await publishHome(deps, gate, userId, teamUrl, true);
}

async function publishHome(
  deps: Deps,
  gate: EventGate | null,
  userId: string,
  teamUrl: string | null,
  always: boolean,
): Promise<void> {
  const { subscriptions, unreadable } = await readSubscriptions(deps);
  const home = homeView({ subscriptions, appUrl: deps.config.decipherAppUrl, teamUrl, unreadable });
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
