import type { CollectionSession, IssueCollection } from "../../vendor/types.ts";
import type { SlackMessage } from "../limits.ts";
import { collectionGrowthThreadReply, collectionParent } from "./collection-card.ts";

/**
 * @deprecated The inputs of the KV poller, kept so it renders the new layout until the
 * Durable Object engine calls `collectionParent` / `collectionDetailsReply` /
 * `collectionGrowthThreadReply` (collection-card.ts) itself. Delete with the old poller.
 */
export type CollectionAlertInput = {
  collection: IssueCollection;
  previousCount: number;
  sessions: CollectionSession[];
  screenshotsExpiresAt: string | null;
  regression: boolean;
  appUrl: string;
  now: Date;
};

/** @deprecated see `CollectionAlertInput`. */
export type CollectionGrowthInput = Omit<CollectionAlertInput, "regression">;

/** @deprecated Use `collectionParent` (and `collectionDetailsReply` for the thread). */
export function collectionAlert(input: CollectionAlertInput): SlackMessage {
  return collectionParent({ ...input, ref: null });
}

/** @deprecated Use `collectionGrowthThreadReply`. */
export function collectionGrowthReply(input: CollectionGrowthInput): SlackMessage {
  return collectionGrowthThreadReply(input);
}
