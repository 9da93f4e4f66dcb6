import type { SlackMessage } from "../messages/limits.ts";
import type { SqlOutbox } from "./sql-outbox.ts";

/**
 * A channel's introduction (src/messages/channel-intro.ts), posted when its first
 * subscription is made and never again: the mark is kept in the channel's storage for good
 * (until an uninstall empties it), so unsubscribing everything and subscribing again does not
 * repeat it. Posted through the channel's outbox under one key, so a post whose answer was
 * lost is looked up, not sent twice.
 */
const INTRODUCED = "introduced";
const KEY = "intro";

export async function introduceOnce(
  storage: DurableObjectStorage,
  outbox: Pick<SqlOutbox, "send">,
  message: SlackMessage,
  at: string,
): Promise<void> {
  if (await storage.get(INTRODUCED)) return;
  const sent = await outbox.send(KEY, message);
  // Slack said no, or not now: the channel's next new subscription tries again. A lost answer
  // may have landed: kept as done, since a second introduction is worse than none.
  if (!sent.ok && sent.failure.kind !== "unknown") {
    console.warn(`channel introduction not posted (${sent.failure.code})`);
    return;
  }
  await storage.put(INTRODUCED, { at, ts: sent.ok ? sent.ts : null });
}
