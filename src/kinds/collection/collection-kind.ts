import { baselineCollection } from "../../engine/baseline.ts";
import { pollCollectionSubscription } from "../../engine/collections.ts";
import type { KindSpec } from "../kind-spec.ts";
import { collectionOptions } from "./options.ts";
import { collectionTriage } from "./triage.ts";
import { collectionWords } from "./words.ts";

/** A collection subscription: one Decipher issue collection, told when its sessions grow or it regresses. */
export const collectionKind: KindSpec<"collection"> = {
  kind: "collection",
  ...collectionOptions,
  baseline: async (vendor, command, who) => ({
    ...(await baselineCollection(vendor, command.id, command.growth, who)),
    mention: command.mention,
  }),
  optionNotes: () => [],
  resubscribed: (existing, fresh) =>
    existing.growth === fresh.growth && (existing.mention ?? null) === (fresh.mention ?? null)
      ? null
      : { ...existing, growth: fresh.growth, mention: fresh.mention ?? null, lastChangeAt: fresh.createdAt },
  firstLedger: () => null,
  joinsOutages: false,
  heldCycle: () => null,
  poll: pollCollectionSubscription,
  triage: collectionTriage,
  words: collectionWords,
};
