import { baselineRows, baselineTest } from "../../engine/baseline.ts";
import { ledgerTestStateFacts } from "../../engine/ledger-digest.ts";
import { pollTest } from "../../engine/poll-test.ts";
import { failingAtSubscribe } from "../../model/failing-at-subscribe.ts";
import { resolveTestOptions } from "../../model/subscription.ts";
import type { KindSpec } from "../kind-spec.ts";
import { testOptions } from "./options.ts";
import { testTriage } from "./triage.ts";
import { triggerNotes } from "./trigger-notes.ts";
import { testWords } from "./words.ts";

/** A test subscription: every failed run of one Decipher test, told in its failure thread. */
export const testKind: KindSpec<"test"> = {
  kind: "test",
  ...testOptions,
  baseline: async (vendor, command, who) => ({
    ...(await baselineTest(vendor, command.id, who)),
    options: command.options,
  }),
  optionNotes: triggerNotes,
  resubscribed: (existing, fresh) =>
    JSON.stringify(resolveTestOptions(existing.options)) === JSON.stringify(resolveTestOptions(fresh.options))
      ? null
      : { ...existing, options: fresh.options, lastChangeAt: fresh.createdAt },
  firstLedger(fresh, sub) {
    if (!fresh.baselineRuns) return null;
    const rows = baselineRows(fresh.baselineRuns, new Date(fresh.createdAt));
    // Status and Home say what the test is doing from the start, not only after a poll.
    const stateFacts = ledgerTestStateFacts(rows, sub, new Date(fresh.createdAt));
    const failing = failingAtSubscribe(rows, stateFacts, resolveTestOptions(sub.options).trigger);
    return { rows, sub: { ...sub, stateFacts, ...(failing ? { failingAtSubscribe: failing } : {}) } };
  },
  joinsOutages: true,
  heldCycle: (sub) => sub.heldFor?.cycle ?? null,
  poll: pollTest,
  triage: testTriage,
  words: testWords,
};
