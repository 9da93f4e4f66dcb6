import { boolParam, type Params, stringParam } from "./api-params.ts";
import { readContent, slackError } from "./content.ts";
import { eventEnvelope, messageMetadataPostedEvent } from "./event-payloads.ts";
import {
  addMessage,
  botMessage,
  findMessage,
  listed,
  removeMessage,
  resolveChannel,
  threadParent,
  toSlackMessage,
  withBlockIds,
} from "./messages.ts";
import type { Method, MethodBody, MethodContext } from "./method-types.ts";
import { APP_ID, BOT_ID, BOT_USER_ID } from "./seed.ts";
import type { Channel, StoredMessage, User } from "./standin-types.ts";
import { TIERS } from "./tiers.ts";
import { TS_PATTERN } from "./ts-clock.ts";
import { ASSISTANT_METHODS } from "./web-api-assistant.ts";
import { chatUnfurl } from "./web-api-unfurl.ts";
import { viewsOpen, viewsPublish } from "./web-api-views.ts";
import type { Workspace } from "./workspaces.ts";

// The Web API methods the bot uses, with Slack's argument checks, error codes and response
// shapes. Each handler answers the JSON body Slack would send with HTTP 200.

/**
 * Where the bot may post: exists, not archived, the bot is a member, and no posting restriction
 * an admin set refuses this post (a thread-only channel takes replies only, a non-threadable
 * one top-level messages only).
 */
function postableChannel(ws: Workspace, params: Params): Channel | MethodBody {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  if (channel.isArchived) return slackError("is_archived");
  if (!channel.isMember) return slackError("not_in_channel");
  const reply = Boolean(stringParam(params, "thread_ts"));
  const refused =
    channel.restriction === "restricted_action_thread_only_channel"
      ? !reply
      : channel.restriction === "restricted_action_non_threadable_channel"
        ? reply
        : channel.restriction !== undefined;
  if (refused && channel.restriction) return slackError(channel.restriction);
  return channel;
}

const isError = (v: Channel | MethodBody): v is MethodBody => "ok" in v;

function threadTsOf(ws: Workspace, channel: string, params: Params): string | undefined | MethodBody {
  const raw = stringParam(params, "thread_ts");
  if (!raw) return undefined;
  if (!TS_PATTERN.test(raw)) return slackError("invalid_thread_ts");
  const parent = threadParent(ws, channel, raw);
  return parent ? parent.ts : slackError("invalid_thread_ts");
}

/**
 * What chat.postMessage and chat.postEphemeral share once the channel (and user) passed:
 * the content, the thread, and storing the bot's message. Returns the stored message, or
 * Slack's error body.
 */
function postBotMessage(
  { ws, params, nextTs }: MethodContext,
  channel: Channel,
  extra: (threadTs: string | undefined) => Partial<Parameters<typeof botMessage>[0]> & { via: string },
): StoredMessage | MethodBody {
  const content = readContent(params, true, ws.refusedBlocks);
  if (!content.ok) return content.body;
  const threadTs = threadTsOf(ws, channel.id, params);
  if (typeof threadTs === "object") return threadTs;
  const metadata = metadataParam(params);
  if (metadata === "invalid") return slackError("invalid_metadata_format");
  return addMessage(
    ws,
    botMessage({
      ts: nextTs(),
      channel: channel.id,
      threadTs,
      text: content.text ?? "",
      blocks: content.blocks,
      ...(metadata ? { metadata } : {}),
      ...extra(threadTs),
    }),
  );
}

/**
 * `metadata` as Slack takes it: a JSON string (or object) with a string `event_type` and an
 * object `event_payload`. Absent → undefined; anything else → "invalid".
 */
function metadataParam(params: Params): StoredMessage["metadata"] | "invalid" | undefined {
  const raw = params.metadata;
  if (raw === undefined || raw === "") return undefined;
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return "invalid";
    }
  }
  if (typeof value !== "object" || value === null) return "invalid";
  const { event_type, event_payload } = value as Record<string, unknown>;
  if (typeof event_type !== "string" || !/^[a-z0-9_]{1,255}$/.test(event_type)) return "invalid";
  if (typeof event_payload !== "object" || event_payload === null || Array.isArray(event_payload))
    return "invalid";
  return { event_type, event_payload: event_payload as Record<string, unknown> };
}

/**
 * Slack's paging of history and replies: at most `limit` (the tier's default and maximum:
 * 100/999 internal, 15/15 distributed) from `cursor` on, with `oldest`/`latest` bounds
 * (exclusive, like Slack's default) on the ts. A larger `limit` is answered with the maximum
 * and a cursor to the rest.
 */
function page(
  ws: Workspace,
  all: StoredMessage[],
  params: Params,
): { messages: StoredMessage[]; hasMore: boolean; nextCursor: string } {
  const tier = TIERS[ws.distribution];
  const asked = Number(stringParam(params, "limit") ?? tier.defaultLimit) || tier.defaultLimit;
  const limit = Math.min(Math.max(asked, 1), tier.maxLimit);
  const oldest = Number(stringParam(params, "oldest") ?? "0") || 0;
  const latest = Number(stringParam(params, "latest") ?? "0") || Number.POSITIVE_INFINITY;
  const inRange = all.filter((m) => Number(m.ts) > oldest && Number(m.ts) < latest);
  const start = Number(stringParam(params, "cursor")?.replace(/^next:/, "") ?? "0") || 0;
  const messages = inRange.slice(start, start + limit);
  const hasMore = start + limit < inRange.length;
  return { messages, hasMore, nextCursor: hasMore ? `next:${start + limit}` : "" };
}

const postMessage: Method = ({ ws, params, nextTs }) => {
  const channel = postableChannel(ws, params);
  if (isError(channel)) return channel;
  const message = postBotMessage({ ws, params, nextTs }, channel, (threadTs) => ({
    replyBroadcast: threadTs ? boolParam(params, "reply_broadcast") : undefined,
    via: "chat.postMessage",
  }));
  if ("ok" in message) return message;
  if (message.metadata && ws.metadataSubscriptions?.has(message.metadata.event_type))
    ws.metadataEvents.push(eventEnvelope(ws, messageMetadataPostedEvent(ws, message)));
  return { ok: true, channel: channel.id, ts: message.ts, message: toSlackMessage(ws, message) };
};

const update: Method = ({ ws, params, nextTs }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  if (channel.isArchived) return slackError("is_archived");
  const ts = stringParam(params, "ts");
  const message = ts ? findMessage(ws, channel.id, ts) : undefined;
  // Ephemeral messages cannot be reached through chat.update, only through response_url; one a
  // person deleted is gone, even while its placeholder holds the thread.
  if (!message || message.ephemeral || message.deleted) return slackError("message_not_found");
  if (message.user !== BOT_USER_ID) return slackError("cant_update_message");
  const content = readContent(params, false, ws.refusedBlocks);
  if (!content.ok) return content.body;
  const hasAttachments = params.attachments !== undefined;
  if (content.text === undefined && content.blocks === undefined && !hasAttachments) {
    return slackError("no_text");
  }
  if (content.text !== undefined) message.text = content.text;
  // Slack keeps the old blocks when none are sent; an empty array removes them.
  if (content.blocks !== undefined)
    message.blocks = content.blocks.length > 0 ? withBlockIds(ws, content.blocks) : undefined;
  message.edited = { user: BOT_USER_ID, ts: nextTs() };
  return {
    ok: true,
    channel: channel.id,
    ts: message.ts,
    text: message.text,
    message: toSlackMessage(ws, message),
  };
};

const deleteMessage: Method = ({ ws, params }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  const ts = stringParam(params, "ts");
  const message = ts ? findMessage(ws, channel.id, ts) : undefined;
  if (!message || message.ephemeral || message.deleted) return slackError("message_not_found");
  if (message.user !== BOT_USER_ID) return slackError("cant_delete_message");
  removeMessage(ws, message);
  return { ok: true, channel: channel.id, ts: message.ts };
};

const postEphemeral: Method = ({ ws, params, nextTs }) => {
  const channel = postableChannel(ws, params);
  if (isError(channel)) return channel;
  const userId = stringParam(params, "user");
  const user = userId ? ws.users.get(userId) : undefined;
  if (!user || user.isBot) return slackError("user_not_in_channel");
  const message = postBotMessage({ ws, params, nextTs }, channel, () => ({
    ephemeral: true,
    visibleTo: user.id,
    via: "chat.postEphemeral",
  }));
  if ("ok" in message) return message;
  return { ok: true, message_ts: message.ts };
};

function channelObject(c: Channel) {
  return {
    id: c.id,
    name: c.name,
    is_channel: !c.id.startsWith("D"),
    is_group: false,
    is_im: c.id.startsWith("D"),
    is_private: c.isPrivate,
    is_archived: c.isArchived,
    is_general: c.id === "C0GENERAL",
    is_member: c.isMember,
    is_shared: c.isExtShared === true,
    is_ext_shared: c.isExtShared === true,
    created: c.created,
    creator: "U0ALICE",
    name_normalized: c.name,
    topic: { value: c.topic, creator: c.topic ? "U0ALICE" : "", last_set: c.topic ? c.created : 0 },
    purpose: { value: "", creator: "", last_set: 0 },
  };
}

const conversationsInfo: Method = ({ ws, params }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  return channel ? { ok: true, channel: channelObject(channel) } : slackError("channel_not_found");
};

/** The bot joins a public channel (`channels:join`); a private one only by invitation. */
const conversationsJoin: Method = ({ ws, params }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  if (channel.isArchived) return slackError("is_archived");
  if (channel.isPrivate) return slackError("method_not_supported_for_channel_type");
  channel.isMember = true;
  return { ok: true, channel: channelObject(channel) };
};

/** Top-level messages (and broadcast replies), newest first, never ephemerals. */
const conversationsHistory: Method = ({ ws, params }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  if (!channel.isMember) return slackError("not_in_channel");
  const all = ws.messages
    .filter((m) => m.channel === channel.id && !m.ephemeral && listed(m))
    .filter((m) => !m.threadTs || m.threadTs === m.ts || m.replyBroadcast)
    .reverse();
  const { messages, hasMore, nextCursor } = page(ws, all, params);
  const metadata = boolParam(params, "include_all_metadata") === true;
  return {
    ok: true,
    messages: messages.map((m) => toSlackMessage(ws, m, { metadata })),
    has_more: hasMore,
    pin_count: 0,
    response_metadata: { next_cursor: nextCursor },
  };
};

const conversationsReplies: Method = ({ ws, params }) => {
  const channel = resolveChannel(ws, stringParam(params, "channel"));
  if (!channel) return slackError("channel_not_found");
  const ts = stringParam(params, "ts");
  const parent = ts ? threadParent(ws, channel.id, ts) : undefined;
  if (!parent) return slackError("thread_not_found");
  const thread = ws.messages.filter(
    (m) => m.channel === channel.id && !m.ephemeral && (m === parent || m.threadTs === parent.ts),
  );
  // Like Slack, the parent leads every page; `oldest` bounds the replies only.
  const { messages, hasMore, nextCursor } = page(
    ws,
    thread.filter((m) => m !== parent),
    params,
  );
  const metadata = boolParam(params, "include_all_metadata") === true;
  return {
    ok: true,
    messages: [parent, ...messages].map((m) => toSlackMessage(ws, m, { metadata })),
    has_more: hasMore,
    response_metadata: { next_cursor: nextCursor },
  };
};

/** Slack's `tz`, `tz_label` and `tz_offset` (seconds east of UTC, now) of an IANA zone. */
function zoneFields(tz: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    timeZoneName: "longOffset",
  }).formatToParts();
  const offset = /GMT([+-])(\d{2}):(\d{2})/.exec(parts.find((p) => p.type === "timeZoneName")?.value ?? "");
  const seconds = offset
    ? (offset[1] === "-" ? -1 : 1) * (Number(offset[2]) * 3600 + Number(offset[3]) * 60)
    : 0;
  const label = new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: "long" })
    .formatToParts()
    .find((p) => p.type === "timeZoneName")?.value;
  return { tz, tz_label: label ?? tz, tz_offset: seconds };
}

function userObject(ws: Workspace, u: User) {
  return {
    id: u.id,
    team_id: ws.teamId,
    name: u.name,
    deleted: false,
    real_name: u.realName,
    ...zoneFields(u.tz ?? "Europe/London"),
    is_admin: u.role === "admin" || u.role === "owner",
    is_owner: u.role === "owner",
    is_primary_owner: false,
    is_restricted: u.role === "guest" || u.role === "single-channel-guest",
    is_ultra_restricted: u.role === "single-channel-guest",
    is_bot: u.isBot,
    is_app_user: false,
    profile: { display_name: u.displayName, real_name: u.realName, team: ws.teamId },
  };
}

const usersInfo: Method = ({ ws, params }) => {
  const id = stringParam(params, "user");
  const user = id ? ws.users.get(id) : undefined;
  return user ? { ok: true, user: userObject(ws, user) } : slackError("user_not_found");
};

/**
 * The conversations a person is in, as the bot's token sees them: public channels they are in,
 * and private ones only where the bot is a member too (Slack hides the rest from the bot). DMs
 * are left out. Pages by `limit` (default 100, at most 999: Slack's method reference; a larger
 * one is `invalid_limit`, an error the method lists, docs/slack-platform.md) and `cursor`.
 */
const usersConversations: Method = ({ ws, params }) => {
  const id = stringParam(params, "user");
  const user = id ? ws.users.get(id) : undefined;
  if (!user) return slackError("user_not_found");
  const types = (stringParam(params, "types") ?? "public_channel").split(",").map((t) => t.trim());
  const excludeArchived = boolParam(params, "exclude_archived") === true;
  const all = [...ws.channels.values()].filter(
    (c) =>
      !c.id.startsWith("D") &&
      c.members.includes(user.id) &&
      (c.isPrivate ? types.includes("private_channel") && c.isMember : types.includes("public_channel")) &&
      !(excludeArchived && c.isArchived),
  );
  const limit = Math.max(Number(stringParam(params, "limit") ?? 100) || 100, 1);
  if (limit > 999) return slackError("invalid_limit");
  const start = Number(stringParam(params, "cursor")?.replace(/^next:/, "") ?? "0") || 0;
  const more = start + limit < all.length;
  return {
    ok: true,
    channels: all.slice(start, start + limit).map(channelObject),
    response_metadata: { next_cursor: more ? `next:${start + limit}` : "" },
  };
};

const authTest: Method = ({ ws }) => ({
  ok: true,
  url: `https://${ws.domain}.slack.com/`,
  team: ws.teamName,
  user: "decipher",
  team_id: ws.teamId,
  user_id: BOT_USER_ID,
  bot_id: BOT_ID,
  app_id: APP_ID,
  is_enterprise_install: false,
});

export const METHODS: Record<string, Method> = {
  ...ASSISTANT_METHODS,
  "chat.unfurl": (ctx) => chatUnfurl(ctx),
  "views.publish": (ctx) => viewsPublish(ctx),
  "views.open": (ctx) => viewsOpen(ctx),
  "auth.test": authTest,
  "chat.postMessage": postMessage,
  "chat.update": update,
  "chat.delete": deleteMessage,
  "chat.postEphemeral": postEphemeral,
  "conversations.info": conversationsInfo,
  "conversations.join": conversationsJoin,
  "conversations.history": conversationsHistory,
  "conversations.replies": conversationsReplies,
  "users.info": usersInfo,
  "users.conversations": usersConversations,
};
