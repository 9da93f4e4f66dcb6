import type { Subscription } from "../model/subscription.ts";

/** Whether a snooze holds at `now` (a timed one ends by itself; the others end on an event). */
export function isSnoozed(sub: Subscription, now: Date): boolean {
  const snooze = sub.snooze;
  if (!snooze) return false;
  return snooze.until === null || Date.parse(snooze.until) > now.getTime();
}
