import { runInDurableObject } from "cloudflare:test";
import type { Bot } from "../../dev/in-workerd/bot.ts";
import { announcedRuns } from "../helpers/announced-runs.ts";

/** How many times each `${channel}:${runId}` is in the channels, and how many of those in an outage message. */
export type Copies = {
  shown: Map<string, number>;
  inOutage: Map<string, number>;
  /** The ts of each message announcing several tests' failures at once. */
  outages: Set<string>;
  /** Alerts that name no run (each one a finding). */
  unreadable: string[];
};

/** Reads the channels as a person would: every run each alert, reply and outage message names. */
export async function copiesIn(bot: Bot, channels: readonly string[]): Promise<Copies> {
  const copies: Copies = { shown: new Map(), inOutage: new Map(), outages: new Set(), unreadable: [] };
  for (const channel of channels) {
    for (const m of await bot.posted(channel)) {
      const runs = announcedRuns(m.text ?? "", m.blocks);
      if (runs === null) continue;
      if (runs === "unreadable") {
        copies.unreadable.push(`an alert in ${channel} names no run: ${m.text}`);
        continue;
      }
      // A reply telling several failures of one test's streak is no outage message.
      const outage = runs.length > 1 && !/ failed \d+ more runs?\b/.test(m.text ?? "");
      if (outage) copies.outages.add(m.ts);
      for (const run of runs) {
        const key = `${channel}:${run}`;
        copies.shown.set(key, (copies.shown.get(key) ?? 0) + 1);
        if (outage) copies.inOutage.set(key, (copies.inOutage.get(key) ?? 0) + 1);
      }
    }
  }
  return copies;
}

/** Outbox keys an object still owes a lookup for: an unknown outcome, or a second copy looked for. */
export function owedOutboxKeys(stub: DurableObjectStub): Promise<string[]> {
  return runInDurableObject(stub, (_i, state) => {
    const sql = state.storage.sql;
    const hasOutbox = sql
      .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'")
      .toArray().length;
    if (!hasOutbox) return [];
    return sql
      .exec<{ key: string }>(
        "SELECT key FROM outbox WHERE state IN ('intended', 'unknown') OR stray_since IS NOT NULL",
      )
      .toArray()
      .map((row) => String(row.key));
  }).catch(() => []);
}
