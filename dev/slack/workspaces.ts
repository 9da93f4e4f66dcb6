import { INSTALL_SCOPES } from "../../src/model/install-scopes.ts";
import { createRateLimiter, type RateLimiter } from "./rate-limit.ts";
import { SLACKBOT_USER_ID, seedChannels, seedUserGroups, seedUsers } from "./seed.ts";
import type {
  AssistantThread,
  CallRecord,
  Channel,
  Distribution,
  Fault,
  RateLimitConfig,
  StoredMessage,
  StoredView,
  User,
  UserGroup,
} from "./standin-types.ts";
import { createMinuteWindow, type MinuteWindow } from "./tiers.ts";
import { createTsClock, type TsClock } from "./ts-clock.ts";

// One stand-in serves every test file at once; each bot token is its own workspace, created
// on first use, so tests isolate themselves just by picking a fresh `xoxb-…` token.

export type Workspace = {
  teamId: string;
  teamName: string;
  domain: string;
  /** Slack's legacy per-app verification token, sent in the `token` field of payloads. */
  verificationToken: string;
  channels: Map<string, Channel>;
  users: Map<string, User>;
  userGroups: UserGroup[];
  messages: StoredMessage[];
  calls: CallRecord[];
  faults: Fault[];
  rateLimit: RateLimitConfig | null;
  limiter: RateLimiter | null;
  /** The app's distribution here: its history tier (`POST /__slack/distribution`). */
  distribution: Distribution;
  /**
   * The bot scopes the token was granted, which Slack names in the `x-oauth-scopes` header of
   * every answer (the manifest's by default; `POST /__slack/scopes`). Calls are not refused for
   * a missing one: docs/slack-platform.md.
   */
  scopes: string[];
  /** History calls in the last minute, per method, for the tier's limit. */
  historyWindow: MinuteWindow;
  /**
   * How far the rate windows' clock is ahead of the wall clock (`POST /__slack/clock`): a test
   * that runs a bot's minutes in milliseconds moves it with them, so a minute apart is a minute.
   */
  clockOffsetMs: number;
  /** The manifest's `metadata_subscriptions`; null: no `message_metadata_posted` at all. */
  metadataSubscriptions: Set<string> | null;
  /** `message_metadata_posted` envelopes not yet taken for delivery. */
  metadataEvents: Record<string, unknown>[];
  nextBlockId: number;
  /** views.publish: each user's Home tab. */
  homeViews: Map<string, StoredView>;
  /** views.open: modals, newest last. */
  modals: StoredView[];
  /** trigger_ids handed to the app: Slack honours one for 3 s, once. */
  triggerIds: Map<string, { at: number; userId: string; used: boolean }>;
  nextViewId: number;
  /**
   * Block types Slack has not rolled out to this workspace yet: a message with one is
   * refused with `invalid_blocks`, like an unknown type (`POST /__slack/block-rollout`).
   */
  refusedBlocks: Set<string>;
  /** Who Slack notified: each mention in a new message, once; edits and ephemerals notify nobody. */
  pings: Ping[];
  /** The assistant pane's threads, by `<channel>:<thread_ts>` (dev/slack/web-api-assistant.ts). */
  assistantThreads: Map<string, AssistantThread>;
};

/** One notification of a mention: a person (`<@U…>`) or a user group (`<!subteam^S…>`). */
export type Ping = { target: string; channel: string; ts: string; threadTs?: string };

export type TokenCheck =
  | { ok: true; workspace: Workspace }
  | { ok: false; error: "invalid_auth" | "token_expired" };

export const isBotToken = (token: string) => token.startsWith("xoxb-") && token.length > 5;

/** FNV-1a, only to give each token stable, different-looking ids. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).toUpperCase().padStart(7, "0");
}

export class Workspaces {
  #byToken = new Map<string, Workspace>();
  /** Tokens issued by Add to Slack (dev/slack/oauth.ts) with rotation on: when each expires. */
  #expires = new Map<string, number>();
  #defaultRateLimit: RateLimitConfig | null;
  readonly clock: TsClock;

  constructor(options: { rateLimit?: RateLimitConfig | null; clock?: TsClock } = {}) {
    this.#defaultRateLimit = options.rateLimit ?? null;
    this.clock = options.clock ?? createTsClock();
  }

  /** Slack's token check: any `xoxb-…` is a bot of its own workspace, revoked ones are not. */
  authenticate(token: string): TokenCheck {
    if (!isBotToken(token) || token.startsWith("xoxb-revoked")) return { ok: false, error: "invalid_auth" };
    const expires = this.#expires.get(token);
    if (expires !== undefined && expires <= Date.now()) return { ok: false, error: "token_expired" };
    return { ok: true, workspace: this.get(token) };
  }

  get(token: string): Workspace {
    let ws = this.#byToken.get(token);
    if (!ws) {
      ws = this.#create(token);
      this.#byToken.set(token, ws);
    }
    return ws;
  }

  /** Another token of an existing workspace (an install's), expiring when rotation is on. */
  alias(token: string, ws: Workspace, expiresAt: number | null) {
    this.#byToken.set(token, ws);
    if (expiresAt !== null) this.#expires.set(token, expiresAt);
  }

  /** Forget one workspace (it is re-seeded on next use), or all of them. */
  reset(token?: string) {
    if (token) this.#byToken.delete(token);
    else this.#byToken.clear();
  }

  setRateLimit(ws: Workspace, config: RateLimitConfig | null) {
    ws.rateLimit = config;
    ws.limiter = config ? createRateLimiter(config) : null;
  }

  #create(token: string): Workspace {
    const id = hash(token);
    const ws: Workspace = {
      teamId: `T${id}`,
      teamName: "Acme Sandbox",
      domain: `acme-${id.toLowerCase()}`,
      verificationToken: `vt${hash(`v:${token}`)}`,
      channels: new Map(seedChannels().map((c) => [c.id, c])),
      users: new Map(seedUsers().map((u) => [u.id, u])),
      userGroups: seedUserGroups(),
      messages: [],
      calls: [],
      faults: [],
      rateLimit: null,
      limiter: null,
      distribution: "internal",
      scopes: INSTALL_SCOPES.split(","),
      historyWindow: createMinuteWindow(() => Date.now() + ws.clockOffsetMs),
      clockOffsetMs: 0,
      metadataSubscriptions: null,
      metadataEvents: [],
      nextBlockId: 1,
      homeViews: new Map(),
      modals: [],
      triggerIds: new Map(),
      nextViewId: 1,
      refusedBlocks: new Set(),
      pings: [],
      assistantThreads: new Map(),
    };
    this.setRateLimit(ws, this.#defaultRateLimit);
    // A human message and a Slackbot one, so "not the bot's message" paths are reachable.
    ws.messages.push(
      {
        ts: "1700000000.000100",
        channel: "C0GENERAL",
        text: "Morning! Anyone seeing checkout errors?",
        user: "U0ALICE",
        ephemeral: false,
        via: "seed",
      },
      {
        ts: "1700000000.000200",
        channel: "C0GENERAL",
        text: "Reminder: the Decipher demo is at 10:00.",
        user: SLACKBOT_USER_ID,
        ephemeral: false,
        via: "seed",
      },
    );
    return ws;
  }
}
