import type { TestRun } from "../decipher/types.ts";

/** A run still `running` this long after it was created is taken as abandoned, not awaited. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** A run's creation time, or null when the vendor sent something that is not a time. */
export function createdMs(run: TestRun): number | null {
  const ms = Date.parse(run.createdAt);
  return Number.isFinite(ms) ? ms : null;
}

export function isSettled(run: TestRun, now: Date): boolean {
  if (run.status !== "running") return true;
  const created = createdMs(run);
  // A running run with no readable time could never age out: it would hold the watermark forever.
  return created === null || now.getTime() - created > ABANDONED_AFTER_MS;
}

/**
 * Moves the watermark over the runs above it, oldest first, up to the first one still
 * running: everything at or below the result is settled.
 */
export function advanceWatermark(
  current: { id: number; at: string | null },
  runs: readonly TestRun[],
  now: Date,
): { id: number; at: string | null } {
  let mark = current;
  for (const run of [...runs].filter((r) => r.id > current.id).sort((a, b) => a.id - b.id)) {
    if (!isSettled(run, now)) break;
    // The time anchor only takes readable times: `since` must stay a valid query.
    mark = { id: run.id, at: createdMs(run) === null ? mark.at : run.createdAt };
  }
  return mark;
}
