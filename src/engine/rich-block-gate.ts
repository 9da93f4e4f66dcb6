import { teamOf } from "../model/subscription.ts";
import type { RichBlockGate } from "../slack-api/post-message.ts";
import { RichBlockMemory } from "../store/rich-block-store.ts";
import type { EngineDeps } from "./engine-deps.ts";

/** Whether the workspace `teamId` takes charts and tables, remembered in KV. */
export function richBlockGate(deps: Pick<EngineDeps, "kv">, teamId: string | undefined): RichBlockGate {
  return new RichBlockMemory(deps.kv, teamOf({ teamId }));
}
