import { baselineCollection } from "../../engine/baseline.ts";
import type { KindSpec } from "../kind-spec.ts";
import { parseCollectionOptions } from "./options.ts";

/** A collection subscription: one Decipher issue collection, told when its sessions grow or it regresses. */
export const collectionKind: KindSpec<"collection"> = {
  kind: "collection",
  parseOptions: parseCollectionOptions,
  optionsOf: (sub) => ({ growth: sub.growth, mention: sub.mention ?? null }),
  sameOptions: (sub, given) => sub.growth === given.growth && (sub.mention ?? null) === given.mention,
  baseline: async (vendor, command, who) => ({
    ...(await baselineCollection(vendor, command.id, command.growth, who)),
    mention: command.mention,
  }),
};
