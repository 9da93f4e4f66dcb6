import type { TestRun } from "../vendor/types.ts";

/** A run still `running` this long after it was created is taken as abandoned, not awaited. */
export const ABANDONED_AFTER_MS = 60 * 60 * 1000;

export function isSettled(run: TestRun, now: Date): boolean {
  return run.status !== "running" || now.getTime() - Date.parse(run.createdAt) > ABANDONED_AFTER_MS;
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
    mark = { id: run.id, at: run.createdAt };
  }
  return mark;
}
