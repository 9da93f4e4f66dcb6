import { type Bot, type SentRequest, signingSecret, standIn } from "../../dev/in-workerd/bot.ts";
import { buildBlockActionsBody } from "../../dev/slack/payloads.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";

/**
 * The Events API side of a test bot: a person's messages, Home tab and modals go through the
 * Slack stand-in (which builds the payloads exactly as it delivers them in the sandbox), and
 * are sent signed to the Worker here, since the stand-in cannot reach a Worker inside workerd.
 */

/** What the stand-in would deliver for a person's action, handed back instead of sent. */
async function undelivered<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const data = await standIn.call<T & { ok: boolean; error?: string }>("POST", path, {
    ...body,
    deliver: false,
  });
  if (!data.ok) throw new Error(`${path}: ${data.error}`);
  return data;
}

/** A thread of the assistant pane, as the stand-in shows it (dev/slack/admin-assistant.ts). */
export type PaneThread = {
  channel: string;
  threadTs: string;
  title: string | null;
  promptsTitle: string | null;
  prompts: { title: string; message: string }[];
  status: string | null;
  messages: { ts: string; text?: string; blocks?: unknown[]; bot_id?: string }[];
};

export type Envelope = {
  type: string;
  event_id: string;
  team_id: string;
  event: Record<string, unknown> & { type: string };
  [key: string]: unknown;
};

export function eventsOf(bot: Bot) {
  async function sendJson(body: string, headers: Record<string, string> = {}, signWith = signingSecret) {
    const signed = await signSlackRequest(signWith, body, Math.floor(Date.now() / 1000));
    return bot.send(
      new Request("http://bot.test/slack/events", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers, ...signed },
        body,
      }),
    );
  }

  return {
    sendJson,
    /** One event envelope, signed, with optional retry headers. */
    send(envelope: unknown, headers: Record<string, string> = {}): Promise<SentRequest> {
      return sendJson(JSON.stringify(envelope), headers);
    },
    /** A person posts `text`; returns the stored message and the events Slack would send. */
    async post(channelId: string, text: string, opts: { userId?: string; threadTs?: string } = {}) {
      return undelivered<{ message: { ts: string; channel: string }; events: Envelope[] }>("/user-messages", {
        botToken: bot.botToken,
        channelId,
        text,
        userId: opts.userId ?? "U0ALICE",
        ...(opts.threadTs ? { threadTs: opts.threadTs } : {}),
      });
    },
    /** Posts and delivers every resulting event; returns the acks. */
    async say(channelId: string, text: string, opts: { userId?: string; threadTs?: string } = {}) {
      const { message, events } = await this.post(channelId, text, opts);
      const acks = [];
      for (const envelope of events) acks.push(await this.send(envelope));
      return { message, events, acks };
    },
    /** The `app_home_opened` envelope Slack would send when the person opens the Home tab. */
    async homeOpened(userId = "U0ALICE"): Promise<Envelope> {
      const { events } = await undelivered<{ events: Envelope[] }>("/home-opened", {
        botToken: bot.botToken,
        userId,
      });
      const [opened] = events;
      if (!opened) throw new Error("the stand-in sent no app_home_opened");
      return opened;
    },
    async openHome(userId = "U0ALICE") {
      return this.send(await this.homeOpened(userId));
    },
    views: (userId = "U0ALICE") => standIn.views(bot.botToken, userId),
    /** The person opens Slack's assistant pane: a new thread in their DM, `assistant_thread_started` sent. */
    async openPane(
      userId = "U0ALICE",
      opts: { contextChannelId?: string; teamOf?: (e: Envelope) => Envelope } = {},
    ) {
      const { thread, events } = await undelivered<{ thread: PaneThread; events: Envelope[] }>(
        "/assistant/threads",
        {
          botToken: bot.botToken,
          userId,
          ...(opts.contextChannelId ? { contextChannelId: opts.contextChannelId } : {}),
        },
      );
      for (const e of events) await this.send(opts.teamOf ? opts.teamOf(e) : e);
      return thread;
    },
    /** What the person's assistant pane shows now: each thread's prompts, status line and messages. */
    async pane(userId = "U0ALICE"): Promise<PaneThread[]> {
      const query = new URLSearchParams({ botToken: bot.botToken, userId });
      return (await standIn.call<{ threads: PaneThread[] }>("GET", `/assistant/threads?${query}`)).threads;
    },
    /**
     * Clicks a button in the person's Home tab. `clicker`: someone else sends that very click
     * (a control copied out of another person's Home, its value tampered with or not).
     */
    async clickInHome(actionId: string, userId = "U0ALICE", clicker?: string) {
      const { payload } = await undelivered<{ payload: Record<string, unknown> }>("/view-actions", {
        botToken: bot.botToken,
        userId,
        actionId,
      });
      const sent = clicker
        ? { ...payload, user: { ...(payload.user as object), id: clicker, username: clicker } }
        : payload;
      return bot.signedPost(buildBlockActionsBody(sent));
    },
    /** Submits the person's open modal with values by block_id; returns the ack. */
    async submitModal(values: Record<string, string>, userId = "U0ALICE") {
      const { payload } = await undelivered<{ payload: unknown }>("/view-submissions", {
        botToken: bot.botToken,
        userId,
        values,
      });
      return bot.signedPost(buildBlockActionsBody(payload as Record<string, unknown>));
    },
  };
}

/**
 * An envelope's `authorizations`, as Slack names the installation (its bot user) it delivers
 * the event to: in a shared channel, or an uninstall, it may differ from `team_id`.
 */
export const deliveredTo = (teamId: string) => [
  { enterprise_id: null, team_id: teamId, user_id: "U0DECIPHER", is_bot: true, is_enterprise_install: false },
];

let counter = 0;
/** A well-formed envelope around `event`, for tests that shape their own. */
export function envelope(teamId: string, event: Record<string, unknown>, eventId?: string): Envelope {
  counter++;
  return {
    token: "legacy-verification-token",
    team_id: teamId,
    api_app_id: "A0DECIPHER",
    type: "event_callback",
    event_id: eventId ?? `EvTEST${Date.now().toString(36).toUpperCase()}${counter}`,
    event_time: Math.floor(Date.now() / 1000),
    event: { event_ts: "1732200000.000100", ...event } as unknown as Envelope["event"],
  };
}

const WITH_USER_TEAM = new Set(["app_mention", "message"]);

/** A workspace of another organization, sharing a channel with the bot's workspace (Slack Connect). */
export const OTHER_ORG_TEAM = "T0OTHERORG";

/**
 * An envelope as Slack sends it from a channel shared with another organization, when someone
 * of that organization acted: delivered to the installation named in `authorizations`, with
 * `team_id` the person's own workspace, and so is `user_team` in the events whose shape has it
 * (a message, an app_mention: java-slack-sdk's fixtures; `link_shared` and `app_home_opened`
 * name only the user). java-slack-sdk's
 * EventInSharedChannelsTest (bolt/src/test/java/test_locally/app/EventInSharedChannelsTest.java,
 * its `messagePayload`) has `"team_id": "T_SOURCE"`, `authorizations[0].team_id`
 * "T_INSTALLED" and `"event_context": "1-message-T_SOURCE-C111"`.
 */
export function fromAnotherOrg(sent: Envelope, installedTeam: string, otherTeam = OTHER_ORG_TEAM): Envelope {
  return {
    ...sent,
    team_id: otherTeam,
    authorizations: deliveredTo(installedTeam),
    is_ext_shared_channel: true,
    event_context: `1-${sent.event.type}-${otherTeam}-C0ALERTS`,
    event: WITH_USER_TEAM.has(sent.event.type) ? { ...sent.event, user_team: otherTeam } : sent.event,
  };
}
