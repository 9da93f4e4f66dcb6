/**
 * The rules that keep alerts quiet: what makes a test flaky, broken or newly failing
 * (src/model/test-classification.ts, its thresholds in src/model/classify-thresholds.ts), and
 * what makes several failures one outage (src/cron.ts; its thresholds in
 * src/model/outage-thresholds.ts). `/decipher help` and the README name them.
 */
import * as OUTAGE from "./outage-thresholds.ts";

/** Several tests failing in one cycle are one event: `held` of the channel's `tests` failing together. */
export function isOutage(held: number, tests: number): boolean {
  return held >= OUTAGE.tests || (held >= OUTAGE.atLeast && held >= OUTAGE.share * tests);
}

/**
 * Whether an outage message is still open: posted at `at`, less than `openForMs` ago, and one
 * of the tests it named (by id) has not passed again since.
 */
export function outageStillOpen(
  outage: { at: string; named: readonly number[]; recovered: readonly number[] },
  now: Date,
): boolean {
  return (
    now.getTime() - Date.parse(outage.at) < OUTAGE.openForMs &&
    outage.named.some((id) => !outage.recovered.includes(id))
  );
}
