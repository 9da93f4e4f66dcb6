import { CLOCK_MARGIN_S, type HistoryTier, type Lookup } from "../slack-api/find-posted.ts";
import type { SlackFailure } from "../slack-api/slack-errors.ts";

/**
 * How an outbox row (src/objects/sql-outbox.ts) is settled: pure decisions over the row, the
 * time and what Slack said; the outbox makes the calls and writes. Every unknown outcome ends
 * within `SETTLE_BOUND_MS`: found, proven absent, or posted again; a second copy found later
 * is removed (docs/architecture.md, "An unknown outcome, settled").
 */

/**
 * - `intended`: recorded, its post under way (or its poll died mid-post);
 * - `unknown`: the answer was lost;
 * - `sent`: Slack holds it at `ts`;
 * - `abandoned`: decided without it (the bound passed and its decision moved on): kept only
 *   to remove a copy that turns up later.
 */
export type OutboxState = "intended" | "unknown" | "sent" | "abandoned";

export type OutboxRow = {
  key: string;
  state: OutboxState;
  ts: string | null;
  thread_ts: string | null;
  intended_at: string;
  /** Where the history lookup goes on from at its next read. */
  cursor: string | null;
  /** No lookup before this time: Slack's `Retry-After`, or the tier's spacing. */
  lookup_after: string | null;
  /**
   * When an earlier post of this key was intended whose copy may still turn up: set when the
   * bound posted it again. Null: no second copy to look for.
   */
  stray_since: string | null;
  /** 1: Slack holds it as text alone (it names less than its blocks would have). */
  text_only: number | null;
};

/** An outcome still unknown this long after its intent is decided: posted again. */
export const SETTLE_BOUND_MS = 30 * 60 * 1000;
/** A second copy is looked for this long, then no longer (Slack unreachable for a day). */
export const STRAY_SEARCH_MS = 24 * 60 * 60 * 1000;

/** What an unknown row's lookup may do now. */
export function lookupNow(
  row: Pick<OutboxRow, "intended_at" | "lookup_after">,
  now: Date,
  lookupAfterMs: number,
): "young" | "paced" | "read" {
  if (now.getTime() - Date.parse(row.intended_at) < lookupAfterMs) return "young";
  if (row.lookup_after && now.getTime() < Date.parse(row.lookup_after)) return "paced";
  return "read";
}

export const pastBound = (row: Pick<OutboxRow, "intended_at">, now: Date): boolean =>
  now.getTime() - Date.parse(row.intended_at) >= SETTLE_BOUND_MS;

/** What a lookup settled, and what the row keeps for the next one. */
export type LookupStep = {
  outcome: { found: { ts: string; textOnly: boolean } } | "absent" | { unknown: SlackFailure };
  /** Fields of the row to write (none: nothing changes). */
  write: Partial<Pick<OutboxRow, "cursor" | "lookup_after">>;
};

/**
 * The next read of a lookup: not before the tier's spacing, nor before Slack's `Retry-After`.
 * After a 429, `jitterMs` more: the objects of one workspace share its minute, and ones that
 * all wait the same time would meet again, the same one always first.
 */
function nextRead(now: Date, tier: HistoryTier, failure?: SlackFailure, jitterMs = 0): string | null {
  const retryAfterMs = (failure?.retryAfterSeconds ?? 0) * 1000;
  const wait = Math.max(tier.spacingMs, retryAfterMs + (failure?.code === "ratelimited" ? jitterMs : 0));
  return wait > 0 ? new Date(now.getTime() + wait).toISOString() : null;
}

/** A lookup's answer, as the row's next state. A failed read keeps the cursor: the lookup goes on, never restarts. */
export function afterLookup(lookup: Lookup, now: Date, tier: HistoryTier, jitterMs = 0): LookupStep {
  if ("found" in lookup)
    return lookup.found
      ? { outcome: { found: { ts: lookup.ts, textOnly: lookup.textOnly } }, write: {} }
      : { outcome: "absent", write: {} };
  if ("cursor" in lookup)
    return {
      outcome: { unknown: { kind: "unknown", code: "lookup_continues" } },
      write: { cursor: lookup.cursor, lookup_after: nextRead(now, tier) },
    };
  const failure = lookup.failed;
  return {
    outcome: { unknown: failure },
    write: {
      lookup_after: nextRead(now, tier, failure, jitterMs),
      // A cursor Slack no longer takes starts the window again.
      ...(failure.code === "invalid_cursor" ? { cursor: null } : {}),
    },
  };
}

/** What `message_metadata_posted` for a row's key at `ts` asks of the outbox. */
export type PostedAction =
  | { kind: "ignore" }
  /** The lost answer, told by Slack itself: the row is sent at `ts`. */
  | { kind: "settle" }
  /** A copy the ledger does not point at: deleted from the channel, and recorded. */
  | { kind: "remove" };

const seconds = (iso: string) => Date.parse(iso) / 1000;

export function onPosted(row: OutboxRow | null, ts: string): PostedAction {
  if (!row) return { kind: "ignore" };
  if (row.state === "abandoned") return { kind: "remove" };
  if (row.state === "sent") return row.ts === ts ? { kind: "ignore" } : { kind: "remove" };
  // Posted again by the bound: a copy from before this intent is the earlier one.
  if (row.stray_since && Number(ts) < seconds(row.intended_at) - CLOCK_MARGIN_S) return { kind: "remove" };
  return { kind: "settle" };
}

/** Whether a second copy is still worth looking for. */
/** A spread of up to a minute, the same for the same key at the same time (no random source in a decision). */
export function jitterOf(key: string, now: Date, spanMs = 60_000): number {
  let h = 2166136261;
  for (const c of `${key}@${now.getTime()}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return (h >>> 0) % spanMs;
}

export const strayWanted = (row: Pick<OutboxRow, "stray_since">, now: Date): boolean =>
  row.stray_since !== null && now.getTime() - Date.parse(row.stray_since) < STRAY_SEARCH_MS;
