import { openTestParent } from "../../engine/alert-parents.ts";
import type { KindTriage } from "../../engine/apply-triage.ts";
import type { TestSubscription } from "../../model/subscription.ts";

/** A test's triage: its failures while muted were counted, so an unmute starts from its state as it is. */
export const testTriage: KindTriage<TestSubscription> = {
  openParent: openTestParent,
  unmuted: async (sub, _userId, _deps, now) => {
    const at = now.toISOString();
    return { ...sub, muted: null, unmutedAt: at, quietFailures: 0, lastChangeAt: at };
  },
  shownAfterUnmute: (next) => next,
  // Who is looking belongs to an open alert (a failure streak, or the "is flaky" alert, whose
  // test passes in between): kept on a passing test, it would greet the next one.
  nothingToAcknowledge: (sub) =>
    !sub.streak && !sub.flakyThread ? "This test passes again: its alert needs nobody looking." : null,
  snoozeCount: () => null,
};
