import { openCollectionParent } from "../../engine/alert-parents.ts";
import type { KindTriage } from "../../engine/apply-triage.ts";
import { baselineCollection } from "../../engine/baseline.ts";
import type { CollectionSubscription } from "../../model/subscription.ts";

/** A collection's triage. */
export const collectionTriage: KindTriage<CollectionSubscription> = {
  openParent: openCollectionParent,
  // A collection was not polled while muted: its growth is measured from now on. Its alert
  // stays its alert (later growth replies in its thread), unless it was resolved meanwhile:
  // then new sessions are a regression, told in a new message.
  unmuted: async (sub, userId, deps, now) => {
    const fresh = await baselineCollection(deps.vendor, sub.collectionId, sub.growth, {
      channelId: sub.channelId,
      userId,
      now,
    });
    return {
      ...sub,
      muted: null,
      rootCause: fresh.rootCause || sub.rootCause,
      alertedCount: fresh.alertedCount,
      alertedAt: fresh.alertedAt,
      wasResolved: fresh.wasResolved,
      regressed: fresh.regressed,
      threadTs: fresh.wasResolved ? null : sub.threadTs,
      lastError: null,
      erroringSince: null,
      lastChangeAt: now.toISOString(),
    };
  },
  // The alert the mute was shown on: a collection resolved meanwhile no longer follows it.
  shownAfterUnmute: (next, before) => ({ ...next, threadTs: before.threadTs }),
  nothingToAcknowledge: () => null,
  snoozeCount: (sub) => sub.alertedCount,
};
