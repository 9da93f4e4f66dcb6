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
  /**
   * Edits a message of the channel through the same door as a post (its channel, its
   * workspace's rich-block gate). An edit's intent is the state's owed edit (`parentEdit`,
   * `owedEdit`, a card's `editOwed`), stored before it is made and cleared only once Slack took
   * it or refused it for good; an edit is idempotent, so an unknown outcome is made again.
   */
  edit(ts: string, message: SlackMessage): Promise<PostResult>;
  /** Keys whose outcome is unknown: Slack may hold these posts already. */
  unknown(): readonly { key: string; at: string }[];
  /** Every key it has a record of, sent or not: Slack may hold (or holds) each of these posts. */
  keys(): ReadonlySet<string>;
};

/** The key of a post telling failed runs: `run:<id>`, or `run:<id>,<id>,…` for a reply telling several. */
export const runsKey = (ids: readonly number[]): string => `run:${ids.join(",")}`;

/**
 * Which outbox key names each failed run. A reply's key names every run it tells, so a run
 * whose reply's answer was lost is told again only through that key (found in Slack, and
 * edited to what is true now), never in a second post, even when the run it was keyed by
 * is no longer a failure (a vendor rerun) or the reply's runs changed.
 */
export function runsInOutbox(
  keys: ReadonlySet<string> | undefined,
  /** A run told already, by this post or another: a post naming one is settled, never re-decided. */
  told: (id: number) => boolean = () => false,
): Map<number, string> {
  const named = new Map<number, string>();
  for (const key of keys ?? []) {
    if (!key.startsWith("run:")) continue;
    const ids = key
      .slice(4)
      .split(",")
      .map(Number)
      .filter((id) => Number.isSafeInteger(id));
    // Edited to name only the runs decided now, it would drop one it told.
    if (ids.some(told)) continue;
    for (const id of ids) if (!named.has(id)) named.set(id, key);
  }
  return named;
}
