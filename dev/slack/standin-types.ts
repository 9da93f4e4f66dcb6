// Shapes shared by the stand-in's modules. Kept free of runtime code.

export type Block = Record<string, unknown>;

export type Channel = {
  id: string;
  name: string;
  isArchived: boolean;
  isMember: boolean;
  isPrivate: boolean;
  created: number;
  topic: string;
  /** The people in it (the bot's own membership is `isMember`): what `users.conversations` answers. */
  members: string[];
  /** Set by an admin: how this channel refuses the bot's posts. */
  restriction?: PostingRestriction;
  /** A person's DM with the app (`D…`): its messages come as `message.im` events, never `app_mention`. */
  isIm?: boolean;
  /** Shared with another organization (Slack Connect): conversations.info's `is_ext_shared`. */
  isExtShared?: boolean;
};

/**
 * A user group (Slack's "@oncall"): the page's @ picker offers it, and a picked one reaches the
 * app as `<!subteam^S…|@handle>` in a command (should_escape) or a message.
 */
export type UserGroup = { id: string; handle: string; name: string; users: string[] };

export type User = {
  id: string;
  name: string;
  realName: string;
  displayName: string;
  isBot: boolean;
  /**
   * What users.info says of them beyond a member (Slack's user object): a workspace `admin`
   * or `owner` (`is_admin`, `is_owner`), a `guest` (`is_restricted`, a multi-channel guest) or
   * a `single-channel-guest` (also `is_ultra_restricted`). Set with `POST /__slack/users`.
   */
  role?: UserRole;
  /** Their time zone as users.info names it (`tz`); Europe/London when not set. */
  tz?: string;
  /**
   * Someone of another organization, in a channel shared with it (Slack Connect): their own
   * team, which Slack names for them in events, commands and clicks (docs/slack-platform.md).
   */
  teamId?: string;
};

export const USER_ROLES = ["member", "admin", "owner", "guest", "single-channel-guest"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export type StoredMessage = {
  ts: string;
  channel: string;
  /** Set on replies (and on parents once they have replies, like Slack). */
  threadTs?: string;
  text: string;
  blocks?: Block[];
  /** Author: the bot user for API posts, a human for seeded chatter, USLACKBOT for notices. */
  user: string;
  botId?: string;
  ephemeral: boolean;
  /** Only the invoking user sees an ephemeral message. */
  visibleTo?: string;
  edited?: { user: string; ts: string };
  replyBroadcast?: boolean;
  replyCount?: number;
  /**
   * A person deleted it. A parent with replies stays as Slack's placeholder ("This message was
   * deleted.", subtype `tombstone`); edits and deletes by the app answer `message_not_found`.
   */
  deleted?: boolean;
  /** Slack message metadata (`event_type`, `event_payload`), as chat.postMessage received it. */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Links Slack would hand to the app in `link_shared` (its unfurl domains only). */
  links?: string[];
  /** chat.unfurl results by URL, shown under the message. */
  unfurls?: Record<string, { blocks: Block[] }>;
  /** How it arrived, so a test can tell a chat.postMessage from a response_url post. */
  via:
    | "chat.postMessage"
    | "chat.postEphemeral"
    | "response_url"
    | "command_ack"
    | "seed"
    | "slackbot"
    | "user"
    /** The parent Slack keeps for a thread of the assistant pane; the page does not show it in the DM. */
    | "assistant";
};

export type CallRecord = {
  method: string;
  /** Request parameters without the token; JSON-valued fields (blocks, …) decoded. */
  params: Record<string, unknown>;
  status: number;
  ok: boolean;
  error?: string;
  at: string;
};

/**
 * `hang`: Slack does the call, then answers only after `delayMs` (a post that lands while the
 * bot has given up waiting). `lost`: Slack does the call, then the connection fails (500), so
 * the caller cannot know it succeeded.
 */
export type FaultKind = "429" | "500" | "error" | "hang" | "lost" | "ok-false" | "html";

/** How the app is distributed, which decides its history tier (`dev/slack/tiers.ts`). */
export type Distribution = "internal" | "distributed";

/**
 * Refusals a channel can give the bot's posts (`POST /__slack/channels/restrict`), from
 * chat.postMessage's errors table: an admin-only channel, a read-only one, one where only
 * thread replies are allowed, one where replies are not.
 */
export type PostingRestriction =
  | "restricted_action"
  | "restricted_action_read_only_channel"
  | "restricted_action_thread_only_channel"
  | "restricted_action_non_threadable_channel"
  /** A Slack Connect channel whose other organization has not granted the app access. */
  | "team_access_not_granted";

export type Fault = {
  method: string;
  kind: FaultKind;
  error?: string;
  /** `error` with `invalid_blocks`: Slack's detail lines (`errors`, `response_metadata.messages`). */
  details?: string[];
  /** `html`: the HTTP status of the HTML page (default 503). */
  status?: number;
  retryAfter?: number;
  delayMs?: number;
  remaining: number;
};

export type RateLimitConfig = {
  /** Sustained messages per second per channel. */
  perSecond: number;
  /** Extra messages allowed at once before throttling starts. */
  burst: number;
};

/**
 * A thread of Slack's assistant pane: in the person's DM with the app, opened by the person
 * (`POST /__slack/assistant/threads`), its prompts, title and status set by the app
 * (dev/slack/web-api-assistant.ts).
 */
export type AssistantThread = {
  userId: string;
  /** The DM (`D…`) the thread is in. */
  channel: string;
  threadTs: string;
  /** The channel the person was looking at when they opened it, or moved to since. */
  contextChannelId: string | null;
  prompts: { title: string; message: string }[] | null;
  promptsTitle: string | null;
  title: string | null;
  /** `sinceTs`: a message of the app after it clears the status. */
  status: { text: string; at: number; sinceTs: string } | null;
};

/** A view the app published (Home) or opened (modal), as Slack keeps it. */
export type StoredView = {
  id: string;
  type: "home" | "modal";
  userId: string;
  view: Record<string, unknown>;
  /** Modals: open until submitted or closed. */
  open: boolean;
  at: string;
};
