import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../src/index.ts";
import { CHANNEL_INTRO_BLOCK_ID } from "../../src/messages/channel-intro.ts";
import { emulatorControl } from "../emulator/control-client.ts";
import { slackAdmin } from "../slack/admin-client.ts";
import { clickFor, findButton, findElement, slashCommandFor } from "../slack/payloads.ts";
import { signSlackRequest } from "../slack/sign.ts";
import type { UserRole } from "../slack/standin-types.ts";

/**
 * Drives the Worker the way Slack and the cron do, from inside workerd (vitest-pool-workers), against the real emulator and Slack
 * stand-in on loopback. Every `Bot` has its own emulator organization and its own Slack
 * workspace (bot token), so tests never see each other's data.
 */

export const emulatorUrl: string = env.DECIPHER_API_URL as string;
export const standInUrl: string = (env.SLACK_API_URL as string).replace(/\/api\/?$/, "");
export const signingSecret: string = env.SLACK_SIGNING_SECRET as string;

export type StoredMessage = {
  ts: string;
  thread_ts?: string;
  text?: string;
  blocks?: Array<Record<string, unknown>>;
  edited?: boolean;
  ephemeral?: boolean;
  user?: string;
  channel?: string;
  [key: string]: unknown;
};

/** The message a channel's first subscription posts (src/messages/channel-intro.ts). */
export const isChannelIntro = (m: StoredMessage) =>
  !m.ephemeral && m.blocks?.[0]?.block_id === CHANNEL_INTRO_BLOCK_ID;

export type SentRequest = { status: number; body: string; headers: Headers };

/** The emulator's control API, for the organizations the bots read. */
export const emulator = emulatorControl(emulatorUrl);
export const newOrg = emulator.newOrg;
/** The Slack stand-in's inspection API, for the workspaces the bots post to. */
export const standIn = slackAdmin(standInUrl);

export type KvCounts = { reads: number; writes: number; deletes: number; lists: number };

/** Counts KV operations, to hold the "an idle poll writes nothing" promise to account. */
export function countingKv(kv: KVNamespace, counts: KvCounts): KVNamespace {
  const count =
    (key: keyof KvCounts, fn: (...args: never[]) => unknown) =>
    (...args: never[]) => {
      counts[key]++;
      return fn(...args);
    };
  return {
    get: count("reads", kv.get.bind(kv) as never),
    getWithMetadata: count("reads", kv.getWithMetadata.bind(kv) as never),
    put: count("writes", kv.put.bind(kv) as never),
    delete: count("deletes", kv.delete.bind(kv) as never),
    list: count("lists", kv.list.bind(kv) as never),
  } as unknown as KVNamespace;
}

/** What the secret watch (test/setup/secret-watch.ts) needs of a bot. */
export type WatchedBot = {
  botToken: string;
  env: { DECIPHER_API_KEY?: string | undefined };
  messages(channelId: string): Promise<StoredMessage[]>;
};

/** Every bot made in this test file. */
export const createdBots: WatchedBot[] = [];

export function createBot(options: {
  apiKey: string;
  botToken?: string;
  adminUserIds?: string;
  /** More bindings, e.g. `SLACK_LOOKUP_AFTER_MS` for suites that run in real time. */
  env?: Record<string, string>;
}) {
  const botToken = options.botToken ?? `xoxb-test-${crypto.randomUUID()}`;
  const kv: KvCounts = { reads: 0, writes: 0, deletes: 0, lists: 0 };
  const botEnv = {
    ...env,
    STATE: countingKv(env.STATE, kv),
    DECIPHER_API_KEY: options.apiKey,
    SLACK_BOT_TOKEN: botToken,
    ADMIN_USER_IDS: options.adminUserIds ?? "",
    ...options.env,
  };

  /** The workspace's team id, as Slack puts it in every payload (the stand-in's, per token). */
  let teamId: string | undefined;
  async function team(): Promise<string> {
    if (!teamId) {
      const res = await fetch(`${env.SLACK_API_URL as string}auth.test`, {
        method: "POST",
        headers: { authorization: `Bearer ${botToken}` },
      });
      teamId = ((await res.json()) as { team_id?: string }).team_id ?? "T0TEST";
    }
    return teamId;
  }

  async function send(request: Request): Promise<SentRequest> {
    const ctx = createExecutionContext();
    const res = await worker.fetch(request, botEnv, ctx);
    const body = await res.text();
    await waitOnExecutionContext(ctx);
    return { status: res.status, body, headers: res.headers };
  }

  async function signedPost(
    body: string,
    contentType = "application/x-www-form-urlencoded",
    timestamp = Math.floor(Date.now() / 1000),
  ) {
    const headers = await signSlackRequest(signingSecret, body, timestamp);
    return send(
      new Request("http://bot.test/slack/events", {
        method: "POST",
        headers: { "content-type": contentType, ...headers },
        body,
      }),
    );
  }

  const responseUrl = (channelId: string, userId: string, messageTs?: string) =>
    standIn.responseUrl(botToken, channelId, userId, messageTs);

  /** A click on a control of a message the bot sent (found by action id), as Slack sends it. */
  async function clickOn(
    message: StoredMessage,
    control: ReturnType<typeof findElement>,
    opts: { channelId?: string; userId?: string; teamId?: string; selectedValue?: string },
  ) {
    const channelId = opts.channelId ?? message.channel ?? "C0ALERTS";
    const userId = opts.userId ?? "U0ALICE";
    if (!control) throw new Error(`no such control in message ${message.ts}`);
    return signedPost(
      clickFor({
        teamId: opts.teamId ?? (await team()),
        channelId,
        userId,
        responseUrl: await responseUrl(channelId, userId, message.ts),
        messageTs: message.ts,
        threadTs: message.thread_ts,
        ephemeral: !!message.ephemeral,
        button: control,
        ...(opts.selectedValue === undefined ? {} : { selectedValue: opts.selectedValue }),
      }),
    );
  }

  const bot = {
    botToken,
    team,
    env: botEnv,
    kv,
    send,
    /** Fires the cron as Cloudflare would. */
    async cron(at: Date = new Date()) {
      const ctx = createExecutionContext();
      await worker.scheduled(
        createScheduledController({ scheduledTime: at, cron: "* * * * *" }),
        botEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
    },
    signedPost,
    /**
     * A slash command exactly as Slack sends it; returns the ack. `teamId`: the person's own
     * workspace, when it is not this one (someone of another organization in a shared channel).
     */
    async command(
      command: string,
      text: string,
      opts: { channelId?: string; userId?: string; teamId?: string } = {},
    ) {
      const channelId = opts.channelId ?? "C0ALERTS";
      const userId = opts.userId ?? "U0ALICE";
      const responseUrlOf = await responseUrl(channelId, userId);
      return signedPost(
        slashCommandFor({
          teamId: opts.teamId ?? (await team()),
          channelId,
          userId,
          command,
          text,
          responseUrl: responseUrlOf,
        }),
      );
    },
    /** Clicks a button of a message the bot sent (found by action id), as Slack would. */
    async click(
      message: StoredMessage,
      actionId: string,
      opts: { channelId?: string; userId?: string; teamId?: string; value?: string } = {},
    ) {
      const found = findButton(message, actionId);
      if (!found) throw new Error(`no ${actionId} button in message ${message.ts}`);
      const button =
        opts.value === undefined ? found : { ...found, element: { ...found.element, value: opts.value } };
      return clickOn(message, button, opts);
    },
    /** Picks `value` in a menu of a message the bot sent, as Slack would (the menu must offer it). */
    async choose(message: StoredMessage, actionId: string, value: string, opts: { userId?: string } = {}) {
      return clickOn(message, findElement(message, actionId), { ...opts, selectedValue: value });
    },
    messages: (channelId = "C0ALERTS") => standIn.messages<StoredMessage>(botToken, channelId),
    /**
     * What the channel shows from the bot: its posts, without ephemeral replies, seeded chatter
     * or the channel's one introduction (posted at its first subscription; test/handlers/channel-intro.test.ts).
     */
    async posted(channelId = "C0ALERTS"): Promise<StoredMessage[]> {
      const messages = await standIn.messages<StoredMessage>(botToken, channelId);
      return messages.filter((m) => m.bot_id && !m.ephemeral && !isChannelIntro(m));
    },
    /** The channel's introduction, if it was posted. */
    async intro(channelId = "C0ALERTS"): Promise<StoredMessage | undefined> {
      return (await standIn.messages<StoredMessage>(botToken, channelId)).find(isChannelIntro);
    },
    slackCalls: () => standIn.calls<{ method: string; error?: string; [k: string]: unknown }>(botToken),
    /** The bot's chat.postMessage calls, apart from each channel's one introduction (posted at its first subscription). */
    async alertPosts() {
      const calls = await standIn.calls<{
        method: string;
        error?: string;
        params?: { blocks?: unknown };
        [k: string]: unknown;
      }>(botToken, "chat.postMessage");
      return calls.filter(
        (c) => !isChannelIntro({ ts: "", blocks: c.params?.blocks as StoredMessage["blocks"] }),
      );
    },
    async slackFault(
      method: string,
      kind: "429" | "500" | "error" | "hang" | "lost",
      count = 1,
      extra: Record<string, unknown> = {},
    ) {
      await standIn.fault(botToken, method, kind, count, extra);
    },
    clearSlackFaults: () => standIn.clearFaults(botToken),
    /** Block types Slack has not rolled out to this workspace yet (e.g. charts and tables). */
    blockRollout: (refuse: string[]) => standIn.blockRollout(botToken, refuse),
    /**
     * Who Slack notified of a mention, oldest first (new messages only, never edits), apart from
     * each channel's introduction, which names who set it up (test/handlers/channel-intro.test.ts).
     */
    async pings() {
      const pings = await standIn.pings(botToken);
      const intros = new Set<string>();
      for (const channel of new Set(pings.map((p) => p.channel)))
        for (const m of await standIn.messages<StoredMessage>(botToken, channel))
          if (isChannelIntro(m)) intros.add(`${channel}:${m.ts}`);
      return pings.filter((p) => !intros.has(`${p.channel}:${p.ts}`));
    },
    /** The app's history tier in this workspace (docs/slack-platform.md). */
    distribution: (distribution: "internal" | "distributed") => standIn.distribution(botToken, distribution),
    /** Slack's rate windows follow the test's clock from `at` on. */
    slackClock: (at: Date) => standIn.clock(botToken, at.getTime()),
    /** An admin restricts who may post in the channel (`restricted_action`, …); null lifts it. */
    restrictChannel: (restriction: string | null, channelId = "C0ALERTS") =>
      standIn.restrict(botToken, channelId, restriction),
    /** The channel is shared with another organization (Slack Connect). */
    shareChannel: (channelId = "C0ALERTS") => standIn.shareChannel(botToken, channelId),
    /** A person of the workspace with a role Slack reports (a guest, an admin), in `channels` only. */
    person: (userId: string, role: UserRole, channels?: string[], tz?: string) =>
      standIn.user(botToken, userId, role, channels, undefined, tz),
    /** A person deletes one of the channel's messages. */
    deleteMessage: (ts: string, channelId = "C0ALERTS") => standIn.deleteMessage(botToken, channelId, ts),
    /** Slack sends `message_metadata_posted` for the bot's posts (the manifest's `metadata_subscriptions`). */
    metadataEvents: (on: boolean) => standIn.metadataSubscriptions(botToken, on ? ["decipher_alert"] : null),
    /** Delivers the `message_metadata_posted` events Slack owes the bot now; returns how many. */
    async deliverMetadataEvents(): Promise<number> {
      const envelopes = await standIn.takeMetadataEvents(botToken);
      for (const envelope of envelopes) await signedPost(JSON.stringify(envelope), "application/json");
      return envelopes.length;
    },
  };
  createdBots.push(bot);
  return bot;
}

export type Bot = ReturnType<typeof createBot>;

/** Every visible string of a message, for assertions about what a person reads. */
export function visibleText(message: { text?: string; blocks?: unknown[] }): string {
  const out: string[] = [message.text ?? ""];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        // `text` of text objects and table cells, `title` of charts.
        if ((key === "text" || key === "title") && typeof value === "string") out.push(value);
        else walk(value);
      }
    }
  };
  walk(message.blocks ?? []);
  return out.join("\n");
}
