import type { TestRun } from "../../vendor/types.ts";

/** How many runs a strip shows. */
export const RUN_STRIP_LENGTH = 10;

export const RUN_STRIP_SYMBOLS = { passed: "🟩", failed: "🟥", running: "⬜" } as const;

export type StripRun = Pick<TestRun, "id" | "status" | "createdAt">;

/**
 * The last ten runs as squares, oldest first and newest last (so it reads like a timeline):
 * 🟩 passed, 🟥 failed, ⬜ still running. Runs may come in any order; they are sorted by
 * `createdAt`, then id. Empty when there are no runs.
 */
export function runStrip(runs: readonly StripRun[]): string {
  return [...runs]
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id)
    .slice(-RUN_STRIP_LENGTH)
    .map((run) => RUN_STRIP_SYMBOLS[run.status] ?? RUN_STRIP_SYMBOLS.running)
    .join("");
}
