import { APP_ID, BOT_ID, BOT_USER_ID } from "./seed.ts";
import type { Block, Channel, StoredMessage } from "./standin-types.ts";
import type { Workspace } from "./workspaces.ts";

// Message bookkeeping shared by the Web API, response_url and the inspection routes.

/** Slack gives every block without one a short random block_id; ours are sequential. */
export function withBlockIds(ws: Workspace, blocks: Block[] | undefined): Block[] | undefined {
  return blocks?.map((b) =>
    typeof b.block_id === "string" ? b : { ...b, block_id: `b${ws.nextBlockId++}` },
  );
}

export function findMessage(ws: Workspace, channel: string, ts: string): StoredMessage | undefined {
  return ws.messages.find((m) => m.channel === channel && m.ts === ts);
}

/** Store a new message; a reply marks its parent as a thread, like Slack's thread_ts on parents. */
const MENTION = /<@[UW][A-Z0-9]+(?:\|[^<>|]*)?>|<!subteam\^S[A-Z0-9]+(?:\|[^<>|]*)?>/g;

/**
 * Slack notifies each person or group a new message mentions, once per message, wherever
 * the mention is (text or blocks). Edits and ephemeral messages notify nobody.
 */
function notify(ws: Workspace, message: StoredMessage) {
  if (message.ephemeral) return;
  const found = `${message.text}\n${JSON.stringify(message.blocks ?? [])}`.match(MENTION) ?? [];
  const targets = new Set(found.map((m) => m.replace(/\|[^>]*>$/, ">")));
  for (const target of targets)
    ws.pings.push({
      target,
      channel: message.channel,
      ts: message.ts,
      ...(message.threadTs ? { threadTs: message.threadTs } : {}),
    });
}

export function addMessage(ws: Workspace, message: StoredMessage): StoredMessage {
  const stored = { ...message, blocks: withBlockIds(ws, message.blocks) };
  ws.messages.push(stored);
  notify(ws, stored);
  if (stored.threadTs && !stored.ephemeral) {
    const parent = findMessage(ws, stored.channel, stored.threadTs);
    if (parent) {
      parent.threadTs = parent.ts;
      parent.replyCount = (parent.replyCount ?? 0) + 1;
    }
  }
  return stored;
}

export function removeMessage(ws: Workspace, message: StoredMessage) {
  ws.messages = ws.messages.filter((m) => m !== message);
}

export const DELETED_TEXT = "This message was deleted.";

/**
 * A person deletes a message: its content is gone and the app can no longer edit or delete it
 * (`message_not_found`), but its ts stays a thread a reply can still go under, shown as
 * Slack's placeholder once it has replies and left out of history while it has none.
 */
export function deleteByPerson(message: StoredMessage) {
  message.deleted = true;
  message.text = DELETED_TEXT;
  message.blocks = undefined;
  message.metadata = undefined;
}

/** What history lists: a deleted message only as the placeholder of a thread that has replies. */
export const listed = (m: StoredMessage) => !m.deleted || (m.replyCount ?? 0) > 0;

/** Resolve a `thread_ts` to the thread's parent (a reply's ts counts as its thread). */
export function threadParent(ws: Workspace, channel: string, threadTs: string): StoredMessage | undefined {
  const target = findMessage(ws, channel, threadTs);
  if (!target || target.ephemeral) return undefined;
  return target.threadTs && target.threadTs !== target.ts
    ? findMessage(ws, channel, target.threadTs)
    : target;
}

/** The message object Slack returns from chat.* and puts in history and payloads. */
export function toSlackMessage(
  ws: Workspace,
  m: StoredMessage,
  options: { metadata?: boolean } = {},
): Record<string, unknown> {
  const botFields =
    m.user === BOT_USER_ID
      ? {
          bot_id: BOT_ID,
          app_id: APP_ID,
          bot_profile: { id: BOT_ID, app_id: APP_ID, name: "Decipher", deleted: false, team_id: ws.teamId },
        }
      : {};
  if (m.deleted)
    return {
      type: "message",
      subtype: "tombstone",
      user: "USLACKBOT",
      text: DELETED_TEXT,
      ts: m.ts,
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
      ...(m.replyCount ? { reply_count: m.replyCount } : {}),
    };
  return {
    type: "message",
    user: m.user,
    ...botFields,
    text: m.text,
    ...(m.blocks ? { blocks: m.blocks } : {}),
    ts: m.ts,
    team: ws.teamId,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...(m.replyCount ? { reply_count: m.replyCount } : {}),
    ...(m.edited ? { edited: m.edited } : {}),
    ...(options.metadata && m.metadata ? { metadata: m.metadata } : {}),
  };
}

/** What the inspection API shows: everything a test wants to assert on, nothing Slack-internal. */
export function toInspected(m: StoredMessage): Record<string, unknown> {
  return {
    ts: m.ts,
    channel: m.channel,
    thread_ts: m.threadTs ?? null,
    text: m.text,
    blocks: m.blocks ?? null,
    user: m.user,
    bot_id: m.botId ?? null,
    edited: Boolean(m.edited),
    ephemeral: m.ephemeral,
    visible_to: m.visibleTo ?? null,
    reply_broadcast: m.replyBroadcast ?? false,
    reply_count: m.replyCount ?? 0,
    via: m.via,
    links: m.links ?? [],
    unfurls: m.unfurls ?? null,
    ...(m.deleted ? { deleted: true } : {}),
  };
}

/** Channel ids, `#names`, and user ids (a DM with that user, opened on first use). */
export function resolveChannel(ws: Workspace, ref: string | undefined): Channel | undefined {
  if (!ref) return undefined;
  const byId = ws.channels.get(ref);
  if (byId) return byId;
  const name = ref.replace(/^#/, "");
  for (const c of ws.channels.values()) if (c.name === name) return c;
  // A person's DM with the app: named by the person's id (as chat.postMessage takes it) or its own.
  const user = ws.users.get(ref) ?? (ref.startsWith("D") ? ws.users.get(`U${ref.slice(1)}`) : undefined);
  if (user && !user.isBot) {
    const dm: Channel = {
      id: `D${user.id.slice(1)}`,
      name: user.id,
      isArchived: false,
      isMember: true,
      isPrivate: true,
      created: Math.floor(Date.now() / 1000),
      topic: "",
      members: [user.id],
      isIm: true,
    };
    ws.channels.set(dm.id, dm);
    return dm;
  }
  return undefined;
}

export function botMessage(
  fields: Omit<StoredMessage, "user" | "botId" | "ephemeral"> & { ephemeral?: boolean },
): StoredMessage {
  return { ...fields, user: BOT_USER_ID, botId: BOT_ID, ephemeral: fields.ephemeral ?? false };
}
