import type { DigestTestState } from "../messages/digest-message.ts";
import { byRowTime, countedFailures, type LedgerRow, rowTime } from "../model/run-ledger.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A test's digest line as its own object knows it: from the ledger, without asking Decipher. */
export type LedgerDigestLine = {
  runs24h: number;
  failures24h: number;
  passRate: number | null;
  state: DigestTestState;
  /** Runs of the day that finished (passed or failed): the weight of the day in the digest's trend. */
  settled: number;
  /** Failures of the day counted, not posted, by reason (`after`, `flaky-digest`, `snoozed`, …). */
  counted: Record<string, number>;
};

/** The last 24 hours of a test's ledger as the digest shows them. */
export function ledgerDigestLine(rows: readonly LedgerRow[], now: Date): LedgerDigestLine {
  const since = now.getTime() - DAY_MS;
  const day = rows.filter((r) => rowTime(r) >= since && r.status !== "unreadable");
  const finished = day.filter((r) => r.status !== "running");
  const failures = finished.filter((r) => r.status === "failed").length;
  const latest = [...rows]
    .filter((r) => r.status !== "unreadable")
    .sort(byRowTime)
    .at(-1);
  const state: DigestTestState = !latest
    ? "unknown"
    : latest.status === "passed"
      ? "passing"
      : latest.status === "failed"
        ? "failing"
        : "running";
  return {
    runs24h: day.length,
    failures24h: failures,
    passRate: finished.length > 0 ? (finished.length - failures) / finished.length : null,
    state,
    settled: finished.length,
    counted: countedFailures(day, new Date(since)),
  };
}
