import type { AppHomeOpenedEvent } from "slack-edge";
import { homeView } from "../../kinds/messages.ts";
import { homeClockLine } from "../../messages/clock-pace.ts";
import { connectDecipherBlocks } from "../../messages/connect-decipher.ts";
import { governPace } from "../../model/plan-governor.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { type EventGate, eventGate } from "../../objects/event-gate-client.ts";
import { classifySlackFailure } from "../../slack-api/slack-errors.ts";
import type { Deps } from "../../wiring.ts";
import { subscriptionsOfPerson } from "../person-subscriptions.ts";

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
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
    subscriptionsOfPerson(deps, teamId, userId),
    deps.control.health(teamId).catch(() => null),
  ]);
  const home = homeView({
    subscriptions,
    appUrl: deps.config.decipherAppUrl,
    teamUrl,
    unreadable,
    unchecked,
    clockLine: health
      ? homeClockLine(governPace(deps.config.plan, health.subscriptions, health.teams))
      : null,
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
