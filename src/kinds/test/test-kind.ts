import { baselineTest } from "../../engine/baseline.ts";
import { resolveTestOptions } from "../../model/subscription.ts";
import type { KindSpec } from "../kind-spec.ts";
import { parseTestOptions } from "./options.ts";

/** A test subscription: every failed run of one Decipher test, told in its failure thread. */
export const testKind: KindSpec<"test"> = {
  kind: "test",
  parseOptions: (tokens) => ({ options: parseTestOptions(tokens) }),
  optionsOf: (sub) => ({ options: resolveTestOptions(sub.options) }),
  sameOptions: (sub, given) =>
    JSON.stringify(resolveTestOptions(sub.options)) === JSON.stringify(given.options),
  baseline: async (vendor, command, who) => ({
    ...(await baselineTest(vendor, command.id, who)),
    options: command.options,
  }),
};
