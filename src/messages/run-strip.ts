import { STRIP_RUNS } from "../model/alert-evidence.ts";

/**
 * The last runs of a test as coloured squares, oldest first and newest last, so the eye reads
 * it like a timeline: "🟩🟩🟥🟩🟥🟥". Running runs are white; anything else the vendor may
 * send one day is grey rather than a guess.
 */

export type StripRun = { id: number; status: string };

const SQUARE: Record<string, string> = { passed: "🟩", failed: "🟥", running: "⬜" };

export function runStrip(runs: readonly StripRun[], length = STRIP_RUNS): string {
  return [...runs]
    .filter((r) => Number.isFinite(r.id))
    .sort((a, b) => a.id - b.id)
    .slice(-length)
    .map((r) => SQUARE[r.status] ?? "◻️")
    .join("");
}
