import type { Config, Env } from "../config.ts";
import type { LedgerDigestLine } from "../engine/ledger-digest.ts";
import { byKind } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { mapLimit } from "../util/map-limit.ts";
import { subscriptionObject } from "./addresses.ts";

/**
 * Channels this small have every test read again for their digest (one vendor read each, in
 * each test's own invocation): a run that ended since its last poll is counted. A bigger one
 * reads only tests whose last poll saw a run running (src/objects/ledger-reads.ts).
 */
const FRESH_READ_EVERY_TEST_UP_TO = 20;

/** Subscription objects asked for their digest figures at once. */
const LEDGER_READS_AT_ONCE = 8;

/**
 * Each of a channel's tests' figures and state from its own object's ledger, by test id: one
 * internal call each, in which the object also reads the runs its last poll did not see (one
 * vendor read: the digest says what is current as of now, src/objects/ledger-reads.ts). A test
 * whose object did not answer is missing from the map.
 */
export async function ledgerLines(
  env: Env,
  teamId: string,
  channelId: string,
  subscriptions: readonly Subscription[],
  at: string,
  config: Config,
): Promise<Map<number, LedgerDigestLine>> {
  const tests = byKind(subscriptions).test.filter((s) => s.channelId === channelId);
  const everyTest = tests.length <= FRESH_READ_EVERY_TEST_UP_TO;
  const lines = new Map<number, LedgerDigestLine>();
  await mapLimit(tests, LEDGER_READS_AT_ONCE, async (t) => {
    const line = await subscriptionObject(env, { teamId, channelId, kind: "test", id: t.testId })
      .digestLine(at, config, everyTest)
      .catch(() => null);
    if (line) lines.set(t.testId, line);
  });
  return lines;
}
