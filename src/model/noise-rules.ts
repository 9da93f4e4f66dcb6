/**
 * The rules that keep alerts quiet: what makes a test flaky, broken or newly failing
 * (src/model/test-classification.ts, its thresholds in src/model/classify-thresholds.ts), and
 * what makes several failures one outage (src/cron.ts; its thresholds in
 * src/model/outage-thresholds.ts). `/decipher help` and docs/alerts.md name them.
 */
import * as OUTAGE from "./outage-thresholds.ts";

/** Several tests failing in one cycle are one event: `held` of the channel's `tests` failing together. */
export function isOutage(held: number, tests: number): boolean {
  return held >= OUTAGE.tests || (held >= OUTAGE.atLeast && held >= OUTAGE.share * tests);
}

/**
 * Whether an outage message is still open: posted at `at`, less than `openForMs` ago, and one
 * of the tests it named (by id) has not passed again since, or the last recovery
 * (`lastRecoveredAt`) was less than `quietMs` ago. Without that time (a record stored before it
 * was kept) an outage whose tests all passed again is over.
 */
export function outageStillOpen(
  outage: {
    at: string;
    named: readonly number[];
    recovered: readonly number[];
    lastRecoveredAt?: string | null;
  },
  now: Date,
): boolean {
  if (outage.named.length === 0 || now.getTime() - Date.parse(outage.at) >= OUTAGE.openForMs) return false;
  if (outage.named.some((id) => !outage.recovered.includes(id))) return true;
  const quietSince = outage.lastRecoveredAt ? Date.parse(outage.lastRecoveredAt) : Number.NaN;
  return now.getTime() - quietSince < OUTAGE.quietMs;
}
