import type { SlackMessage } from "../messages/limits.ts";
import type { PostResult } from "../slack-api/post-message.ts";

/**
 * Every message the bot posts goes through an outbox: recorded as intended before it is sent,
 * carrying its idempotency key as Slack message metadata, and marked sent with its ts. The same
 * key is never sent twice: a key already sent answers with its ts; a key whose outcome is
 * unknown (a timeout, a 5xx, a dropped connection, a crash mid-post) is looked up in the
 * channel's history first, and sent only when Slack does not have it. The objects keep their
 * outboxes in their own SQLite storage (src/objects/sql-outbox.ts).
 */
export type Outbox = {
  send(key: string, message: SlackMessage, threadTs?: string): Promise<PostResult>;
  /** Keys whose outcome is unknown: Slack may hold these posts already. */
  unknown(): readonly { key: string; at: string }[];
  /** Every key it has a record of, sent or not: Slack may hold (or holds) each of these posts. */
  keys(): ReadonlySet<string>;
};
