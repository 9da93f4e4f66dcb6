import type { TestRun } from "../decipher/types.ts";

/** A run still `running` this long after it was created is taken as abandoned, not awaited. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** A run's creation time, or null when the vendor sent something that is not a time. */
export function createdMs(run: TestRun): number | null {
  const ms = Date.parse(run.createdAt);
  return Number.isFinite(ms) ? ms : null;
}
