import type { Env } from "../config.ts";
import type { EngineDeps } from "../engine/engine-deps.ts";
import { richBlockGate } from "../engine/rich-block-gate.ts";
import { subscriptionId } from "../model/kind-facts.ts";
import { subscriptionOwner } from "../model/post-owner.ts";
import { type Subscription, teamOf } from "../model/subscription.ts";
import { historyPace } from "./history-pace.ts";
import { outboxSettings, SqlOutbox } from "./sql-outbox.ts";

/**
 * A subscription's outbox (src/objects/sql-outbox.ts) in its object's SQLite: its posts name
 * the object as their owner, so Slack's word that one landed reaches it, and its history
 * lookups take turns with the rest of its workspace.
 */
export function subscriptionOutbox(
  sql: SqlStorage,
  env: Env,
  sub: Subscription,
  deps: EngineDeps,
  now: Date,
  writes: { storage: number; kv: number },
): SqlOutbox {
  return new SqlOutbox(sql, deps.slack, {
    ...outboxSettings(deps.config),
    channel: sub.channelId,
    now,
    writes,
    gate: richBlockGate(deps, sub.teamId),
    pace: historyPace(env, deps.config, teamOf(sub), now),
    owner: subscriptionOwner(sub.kind, subscriptionId(sub)),
  });
}
