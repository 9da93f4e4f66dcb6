import type { Subscription } from "../model/subscription.ts";
import { DEFAULT_TEAM } from "../model/subscription-kind.ts";
import type { RichBlockGate } from "../slack-api/post-message.ts";
import { RichBlockMemory } from "../store/rich-block-store.ts";
import type { EngineDeps } from "./engine-deps.ts";

/** Whether the workspace `teamId` takes charts and tables, remembered in KV. */
export function richBlockGate(deps: Pick<EngineDeps, "kv">, teamId: string | undefined): RichBlockGate {
  return new RichBlockMemory(deps.kv, teamId ?? DEFAULT_TEAM);
}

/** The workspace of a channel's subscriptions (one per channel). */
export function teamOf(subscriptions: readonly Subscription[]): string {
  return subscriptions.find((s) => s.teamId)?.teamId ?? DEFAULT_TEAM;
}
