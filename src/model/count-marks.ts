import type { CollectionSubscription, CountMark } from "./subscription.ts";

/** Marks a collection keeps for its growth chart. */
export const MAX_COUNT_MARKS = 20;

/**
 * The collection's marks with this alert's count added. A subscription without marks starts
 * from the count its first alert grew from (`alertedCount` at `alertedAt`), so the first
 * alert already has a line to draw.
 */
export function withCountMark(sub: CollectionSubscription, mark: CountMark): CountMark[] {
  const marks = sub.counts?.length ? sub.counts : [{ at: sub.alertedAt, count: sub.alertedCount }];
  return [...marks, mark].slice(-MAX_COUNT_MARKS);
}
