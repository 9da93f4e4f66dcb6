import { type LedgerRow, rowTime } from "./run-ledger.ts";

/**
 * A test's runs of a period asked about ("what failed today?"), from its run ledger: every
 * run that finished, whatever the channel was told of it, so a test whose last run passed
 * still counts the failures before it.
 */
export type PeriodRuns = {
  /** Runs that finished, passed or failed. */
  runs: number;
  failures: number;
  /** The newest failure of the period. */
  lastFailed: { runId: number; at: string } | null;
};

/** The runs of `[since, until)` among a ledger's rows. */
export function periodRuns(rows: readonly LedgerRow[], since: Date, until: Date): PeriodRuns {
  const settled = rows.filter((r) => {
    const at = rowTime(r);
    return (r.status === "passed" || r.status === "failed") && at >= since.getTime() && at < until.getTime();
  });
  const failed = settled.filter((r) => r.status === "failed").sort((a, b) => rowTime(a) - rowTime(b));
  const last = failed.at(-1);
  return {
    runs: settled.length,
    failures: failed.length,
    lastFailed: last ? { runId: last.id, at: new Date(rowTime(last)).toISOString() } : null,
  };
}
