import type { HeldFailure } from "../model/held-failure.ts";
import { isOutage, outageStillOpen } from "../model/noise-rules.ts";
import type { Outage, PostedOutage } from "../model/outage.ts";

/**
 * The channel's outage policy, as pure functions of its latest outage message and the
 * failures held this cycle; src/objects/channel-outage.ts carries the decisions out (the
 * outbox, Slack) and keeps the record.
 */

/** What the cycle's failures become. */
export type OutageChoice =
  /** They belong to the earlier outage: `fresh` (those it does not name yet) join its thread. */
  | { kind: "join"; outage: PostedOutage; fresh: HeldFailure[] }
  /** Not an outage: each test alerts alone. */
  | { kind: "alone" }
  /** A new outage: its record is stored first, then its message posted. */
  | { kind: "open"; outage: Outage };

/** The outage is still going on (src/model/noise-rules.ts): a test that fails meanwhile joins it. */
export function stillOpen(outage: Outage, now: Date): boolean {
  return outageStillOpen(
    {
      at: outage.at,
      // The tests a delivered message of the outage names.
      named: outage.items.filter((i) => outage.named.includes(i.runId)).map((i) => i.testId),
      recovered: outage.recovered ?? [],
      lastRecoveredAt: outage.lastRecoveredAt ?? null,
    },
    now,
  );
}

export function decideOutage(input: {
  /** The channel's latest outage message, when Slack has it. */
  earlier: PostedOutage | null;
  /** The held failures no unsettled message may name. */
  open: readonly HeldFailure[];
  subscribed: number;
  now: Date;
}): OutageChoice {
  const { earlier, open, subscribed, now } = input;
  const retried = earlier && open.some((i) => earlier.items.some((o) => o.runId === i.runId));
  if (earlier && (retried || stillOpen(earlier, now))) {
    // Some or all of these are the earlier outage's (a retried cycle, or one settled just
    // now), or they failed while it is still going on or minutes after it recovered (the
    // same incident flaring up): one event, one message. What it does not name yet joins its
    // thread, each run once.
    const fresh = open.filter((i) => !earlier.named.includes(i.runId));
    const items = [...earlier.items, ...fresh.filter((i) => !earlier.items.some((o) => o.runId === i.runId))];
    return { kind: "join", outage: { ...earlier, items }, fresh };
  }
  if (!isOutage(open.length, subscribed)) return { kind: "alone" };
  // Failures whose next run passed already are named as passed again from the start.
  const backAlready = [...new Set(open.filter((i) => i.passedNext).map((i) => i.testId))];
  const at = now.toISOString();
  return {
    kind: "open",
    outage: {
      key: `outage:${at}`,
      at,
      items: [...open],
      subscribed,
      ts: null,
      named: [],
      ...(backAlready.length > 0 ? { recovered: backAlready, lastRecoveredAt: at } : {}),
    },
  };
}

/**
 * The outage once `fresh` joined it and its thread named those Slack took: a test named again
 * is failing again, so the parent no longer marks it as passed, unless its next run had
 * passed already (named as passed again at once).
 */
export function afterJoin(outage: PostedOutage, fresh: readonly HeldFailure[], now: Date): PostedOutage {
  const joined = fresh.filter((i) => outage.named.includes(i.runId));
  const again = joined.filter((i) => !i.passedNext).map((i) => i.testId);
  const backAlready = joined.filter((i) => i.passedNext).map((i) => i.testId);
  const recovered = [
    ...new Set([...(outage.recovered ?? []).filter((id) => !again.includes(id)), ...backAlready]),
  ];
  return {
    ...outage,
    recovered,
    ...(backAlready.length > 0 ? { lastRecoveredAt: now.toISOString() } : {}),
  };
}
