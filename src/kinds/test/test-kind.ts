import { baselineTest } from "../../engine/baseline.ts";
import { pollTest } from "../../engine/poll-test.ts";
import type { KindSpec } from "../kind-spec.ts";
import { testOptions } from "./options.ts";
import { testTriage } from "./triage.ts";
import { testWords } from "./words.ts";

/** A test subscription: every failed run of one Decipher test, told in its failure thread. */
export const testKind: KindSpec<"test"> = {
  kind: "test",
  ...testOptions,
  baseline: async (vendor, command, who) => ({
    ...(await baselineTest(vendor, command.id, who)),
    options: command.options,
  }),
  poll: pollTest,
  triage: testTriage,
  words: testWords,
};
