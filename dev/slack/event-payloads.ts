import { APP_ID, BOT_ID, BOT_USER_ID } from "./seed.ts";
import type { AssistantThread, Block, StoredMessage, StoredView, User } from "./standin-types.ts";
import { unfurlIdOf } from "./web-api-unfurl.ts";
import type { Workspace } from "./workspaces.ts";

// What Slack POSTs to an app for the Events API (JSON envelopes) and for views (form
// `payload`), field for field. Pure apart from fresh ids.

/** Slack's app-level unfurl domains cover the host and its subdomains. */
function inDomains(url: string, domains: readonly string[]): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return domains.some((d) => host === d.toLowerCase() || host.endsWith(`.${d.toLowerCase()}`));
  } catch {
    return false;
  }
}

/** Links of a message as Slack sees them: `<url|label>`, `<url>` and bare URLs, each once. */
export function linksIn(text: string, domains: readonly string[]): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>|(https?:\/\/[^\s<>]+)/g)) {
    const url = (m[1] ?? m[2] ?? "").replace(/[.,;:!?)]+$/, "");
    if (url && inDomains(url, domains) && !found.includes(url)) found.push(url);
  }
  return found;
}

/** "@Decipher …" typed in the sandbox becomes the mention token Slack would send. */
export function withMentionTokens(text: string): string {
  return text.replace(/(^|\s)@decipher\b/gi, `$1<@${BOT_USER_ID}>`);
}

export const mentionsBot = (text: string) => text.includes(`<@${BOT_USER_ID}>`);

export function newEventId(): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `Ev${Array.from(bytes, (b) => chars[b % chars.length]).join("")}`;
}

/** The team Slack names for a person: their own organization's, for someone from another (Slack Connect). */
export const teamOf = (ws: Workspace, user: Pick<User, "teamId">) => user.teamId ?? ws.teamId;

/**
 * `from`: the person's team when they are of another organization, and whether the channel is
 * shared; the event is still delivered to this workspace's installation (`authorizations`).
 */
export function eventEnvelope(
  ws: Workspace,
  event: Record<string, unknown>,
  eventId = newEventId(),
  from: { teamId?: string | undefined; shared?: boolean | undefined } = {},
) {
  return {
    token: ws.verificationToken,
    team_id: from.teamId ?? ws.teamId,
    context_team_id: ws.teamId,
    api_app_id: APP_ID,
    event,
    type: "event_callback",
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: ws.teamId,
        user_id: BOT_USER_ID,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: from.shared === true,
    event_context: `4-${eventId}`,
  };
}

/** Slack's `message_metadata_posted`, as its event page shows it, for a message the app posted. */
export function messageMetadataPostedEvent(ws: Workspace, message: StoredMessage) {
  return {
    type: "message_metadata_posted",
    app_id: APP_ID,
    bot_id: BOT_ID,
    user_id: message.user,
    team_id: ws.teamId,
    channel_id: message.channel,
    metadata: message.metadata,
    message_ts: message.ts,
    event_ts: message.ts,
  };
}

export function linkSharedEvent(message: StoredMessage, links: string[], eventTs: string) {
  return {
    type: "link_shared",
    channel: message.channel,
    is_bot_user_member: true,
    user: message.user,
    message_ts: message.ts,
    ...(message.threadTs && message.threadTs !== message.ts ? { thread_ts: message.threadTs } : {}),
    unfurl_id: unfurlIdOf(message),
    source: "conversations_history",
    links: links.map((url) => ({ domain: new URL(url).hostname, url })),
    event_ts: eventTs,
  };
}

export function appMentionEvent(
  ws: Workspace,
  message: StoredMessage,
  eventTs: string,
  userTeam = ws.teamId,
) {
  return {
    type: "app_mention",
    user: message.user,
    text: message.text,
    ts: message.ts,
    team: userTeam,
    ...(userTeam === ws.teamId ? {} : { user_team: userTeam, source_team: userTeam }),
    channel: message.channel,
    ...(message.threadTs && message.threadTs !== message.ts ? { thread_ts: message.threadTs } : {}),
    event_ts: eventTs,
  };
}

/**
 * A person's message in their DM with the app, as `message.im` delivers it
 * (https://docs.slack.dev/reference/events/message.im): `channel_type: "im"`, and in a thread
 * (the assistant pane's, or one the person started) its `thread_ts`.
 */
export function directMessageEvent(ws: Workspace, message: StoredMessage, userTeam = ws.teamId) {
  return {
    type: "message",
    channel: message.channel,
    user: message.user,
    text: message.text,
    ts: message.ts,
    team: userTeam,
    ...(userTeam === ws.teamId ? {} : { user_team: userTeam, source_team: userTeam }),
    ...(message.threadTs && message.threadTs !== message.ts ? { thread_ts: message.threadTs } : {}),
    event_ts: message.ts,
    channel_type: "im",
  };
}

/**
 * `assistant_thread_started` and `assistant_thread_context_changed`, as their event pages show
 * them (https://docs.slack.dev/reference/events/assistant_thread_started): the person, the DM
 * and the thread, and the channel they are looking at (`context`).
 */
export function assistantThreadEvent(
  type: "assistant_thread_started" | "assistant_thread_context_changed",
  ws: Workspace,
  thread: AssistantThread,
  eventTs: string,
) {
  return {
    type,
    assistant_thread: {
      user_id: thread.userId,
      context: thread.contextChannelId
        ? { channel_id: thread.contextChannelId, team_id: ws.teamId, enterprise_id: null }
        : {},
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
    },
    event_ts: eventTs,
  };
}

export function appHomeOpenedEvent(user: User, home: Record<string, unknown> | null, eventTs: string) {
  return {
    type: "app_home_opened",
    user: user.id,
    channel: `D${user.id.slice(1)}`,
    tab: "home",
    ...(home ? { view: home } : {}),
    event_ts: eventTs,
  };
}

type ViewPayloadInput = { ws: Workspace; user: User; view: Record<string, unknown> };

const userField = (ws: Workspace, user: User) => ({
  id: user.id,
  username: user.name,
  name: user.name,
  team_id: ws.teamId,
});

/** A button clicked in a view (Home tab or modal): no channel, no response_url. */
export function viewBlockActionsPayload(
  input: ViewPayloadInput & {
    button: { blockId: string; element: Block };
    triggerId: string;
    actionTs: string;
  },
) {
  const { ws, user, view, button } = input;
  return {
    type: "block_actions",
    user: userField(ws, user),
    api_app_id: APP_ID,
    token: ws.verificationToken,
    container: { type: "view", view_id: view.id },
    trigger_id: input.triggerId,
    team: { id: ws.teamId, domain: ws.domain },
    enterprise: null,
    is_enterprise_install: false,
    view,
    actions: [
      {
        action_id: button.element.action_id,
        block_id: button.blockId,
        text: button.element.text,
        ...(button.element.value !== undefined ? { value: button.element.value } : {}),
        type: "button",
        action_ts: input.actionTs,
      },
    ],
  };
}

/** A modal's submission: the inputs' values by block_id and action_id, as Slack sends them. */
export function viewSubmissionPayload(
  input: ViewPayloadInput & { values: Record<string, string>; stored: StoredView },
) {
  const { ws, user, view, values, stored } = input;
  const state: Record<string, Record<string, { type: string; value: string | null }>> = {};
  for (const block of (stored.view.blocks as Block[] | undefined) ?? []) {
    if (block.type !== "input" || typeof block.block_id !== "string") continue;
    const element = block.element as Block | undefined;
    const actionId = String(element?.action_id ?? "value");
    const value = values[block.block_id];
    state[block.block_id] = {
      [actionId]: { type: String(element?.type ?? "plain_text_input"), value: value ? value : null },
    };
  }
  return {
    type: "view_submission",
    team: { id: ws.teamId, domain: ws.domain },
    user: userField(ws, user),
    api_app_id: APP_ID,
    token: ws.verificationToken,
    trigger_id: `${Date.now()}.1.submission`,
    view: { ...view, state: { values: state } },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}
