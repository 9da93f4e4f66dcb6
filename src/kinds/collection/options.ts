import type { Mention } from "../../model/mention.ts";
import type { CollectionSubscription } from "../../model/subscription.ts";
import { bad, type Parsed, parseMentionOption, parseOptions } from "../option-reader.ts";

export type CollectionOptions = {
  /** Sessions of growth that alert; null = the default (+5 or +50 %, whichever is smaller). */
  growth: number | null;
  /** Who a new alert pings (src/model/mention.ts); null = nobody. */
  mention: Mention | null;
};

export const COLLECTION_OPTIONS_USAGE =
  "Options: `growth:<sessions>` `mention:@person|@group`, like `subscribe collection 501 growth:10 mention:@oncall`.";

const collectionParsers: Parsed<CollectionOptions> = {
  growth(value, token) {
    const n = /^\d{1,6}$/.test(value) ? Number(value) : 0;
    if (n >= 1) return n;
    throw bad(token, "`growth:` takes a number of sessions, at least 1", COLLECTION_OPTIONS_USAGE);
  },
  mention: (value, token) => parseMentionOption(value, token, COLLECTION_OPTIONS_USAGE),
};

/** `growth:<sessions> mention:…` after `subscribe collection <id>`. */
export function parseCollectionOptions(tokens: readonly string[]): CollectionOptions {
  return parseOptions(
    tokens,
    { growth: null, mention: null },
    collectionParsers,
    "subscribe collection",
    COLLECTION_OPTIONS_USAGE,
  );
}

/** A collection's options in its spec (src/kinds/kind-options.ts). */
export const collectionOptions = {
  parseOptions: parseCollectionOptions,
  optionsOf: (sub: CollectionSubscription): CollectionOptions => ({
    growth: sub.growth,
    mention: sub.mention ?? null,
  }),
  changedOptions: (sub: CollectionSubscription, given: CollectionOptions, names: readonly string[]) => ({
    growth: names.includes("growth") ? given.growth : sub.growth,
    mention: names.includes("mention") ? given.mention : (sub.mention ?? null),
  }),
  sameOptions: (sub: CollectionSubscription, given: CollectionOptions) =>
    sub.growth === given.growth && (sub.mention ?? null) === given.mention,
};
