import type { MessageMetadataPostedEvent } from "slack-edge";
import { parseOwner } from "../../model/post-owner.ts";
import { POST_EVENT_TYPE } from "../../slack-api/post-message.ts";
import { isRecord } from "../../util/checks.ts";
import type { Deps } from "../../wiring.ts";

const ID = /^[A-Z0-9]{1,30}$/;
const TS = /^\d{1,12}\.\d{1,8}$/;
/** Keys the outbox writes (src/engine/outbox.ts) are short; anything longer is not ours. */
const MAX_KEY = 500;

/**
 * Slack's `message_metadata_posted` for a post of the bot: the post landed, at `message_ts`.
 * An outbox row whose answer was lost is settled by it without reading history, and a second
 * copy is found by it (docs/architecture.md, "An unknown outcome, settled"). Only the bot's
 * own posts count: any app may post metadata of our event type, and Slack sends the event to
 * every app subscribed to it, so the posting app must be this one (`api_app_id`).
 */
export async function handlePostLanded(
  event: MessageMetadataPostedEvent,
  envelope: Record<string, unknown>,
  teamId: string,
  deps: Deps,
): Promise<void> {
  if (event.metadata?.event_type !== POST_EVENT_TYPE) return;
  if (typeof envelope.api_app_id !== "string" || event.app_id !== envelope.api_app_id) return;
  const payload = event.metadata.event_payload;
  const owner = isRecord(payload) ? parseOwner(payload.owner) : null;
  const key = isRecord(payload) ? payload.key : undefined;
  if (!owner || typeof key !== "string" || key.length === 0 || key.length > MAX_KEY) return;
  if (!ID.test(event.channel_id ?? "") || !TS.test(event.message_ts ?? "")) return;
  await deps.control.postLanded(
    {
      teamId,
      channelId: event.channel_id,
      owner,
      key,
      ts: event.message_ts,
      textOnly: isRecord(payload) && payload.text_only === true,
    },
    deps.now(),
  );
}
