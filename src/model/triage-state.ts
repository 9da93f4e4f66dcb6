/** What people did to an alert (acknowledge, snooze, mute) and the answers they get. */

export type SnoozeChoice =
  | { kind: "for"; hours: number }
  /** Tests: until a run passes again. */
  | { kind: "until-pass" }
  /** Collections: until this many more sessions than now. */
  | { kind: "until-growth"; sessions: number };

export type TriageAction =
  | { type: "acknowledge"; userId: string }
  | { type: "snooze"; userId: string; choice: SnoozeChoice }
  | { type: "unsnooze"; userId: string }
  | { type: "mute"; userId: string }
  | { type: "unmute"; userId: string };

export type TriageOutcome =
  /** `note`: one sentence for the person who clicked (ephemeral). */
  | { ok: true; note: string }
  /** `gone`: the subscription no longer exists (an old alert); `invalid`: the action makes no sense now. */
  | { ok: false; reason: "gone" | "invalid"; note: string };

export type Acknowledgement = { userId: string; at: string };

/** Who muted a subscription, and when. */
export type Muted = { by: string; at: string };

export type Snooze = {
  by: string;
  at: string;
  /** ISO end of a timed snooze, or of an until-pass one when the pass came; null until then. */
  until: string | null;
  choice: SnoozeChoice;
  /** What happened while snoozed, summed up in one message when it ends. */
  missedFailures: number;
  /** Collections: the count when the snooze began (until-growth compares with it). */
  countAtStart: number | null;
};

/**
 * Whether a snooze holds at `now`: a timed one ends by itself, the others on an event. The
 * engine, the status lines, the index and the alert's own line all ask this one question.
 */
export function isSnoozed(holder: { snooze?: Snooze | null }, now: Date): boolean {
  const snooze = holder.snooze;
  if (!snooze) return false;
  return snooze.until === null || Date.parse(snooze.until) > now.getTime();
}
