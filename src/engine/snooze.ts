import type { Snooze } from "../model/triage-state.ts";

/**
 * Whether a pass that ran at `passedAt` (epoch ms) ends the snooze: "until it passes", and the
 * pass ran after the click. One that ran before it, not polled yet, is not the pass it waits for.
 */
export function passEndsSnooze(snooze: Snooze | null | undefined, passedAt: number): boolean {
  return snooze?.choice.kind === "until-pass" && passedAt >= Date.parse(snooze.at);
}

/**
 * The snooze, ended as of a pass that ends it ("until it passes", clicked before that pass), so
 * its summary of what it held is told; null when this pass does not end it.
 */
export function endedByPass(snooze: Snooze | null | undefined, passedAt: number, now: Date): Snooze | null {
  if (!snooze || snooze.until !== null || !passEndsSnooze(snooze, passedAt)) return null;
  return { ...snooze, until: new Date(Math.min(passedAt, now.getTime())).toISOString() };
}
