import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from "cloudflare:test";
import worker from "../../src/index.ts";
import { emulatorControl } from "../emulator/control-client.ts";
import { signSlackRequest } from "../slack/sign.ts";

/**
 * Drives the Worker the way Slack and the cron do, from inside workerd (vitest-pool-workers), against the real emulator and Slack
 * stand-in on loopback. Every `Bot` has its own emulator organization and its own Slack
 * workspace (bot token), so tests never see each other's data.
 */

export const emulatorUrl: string = env.DECIPHER_API_URL as string;
export const standInUrl: string = (env.SLACK_API_URL as string).replace(/\/api\/?$/, "");
export const signingSecret: string = env.SLACK_SIGNING_SECRET as string;

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

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

export type SentRequest = { status: number; body: string; headers: Headers };

/** The emulator's control API, for the organizations the bots read. */
export const emulator = emulatorControl(emulatorUrl);
export const newOrg = emulator.newOrg;

/**
 * Now, moved off the top of the hour: that minute's cycle also does the hourly chores (index
 * reconcile, KV heartbeat), which would blur tests that count a cycle's KV operations.
 */
export function ordinaryNow(): Date {
  const now = new Date();
  if (now.getUTCMinutes() === 0) now.setUTCMinutes(1);
  return now;
}

export type KvCounts = { reads: number; writes: number; deletes: number; lists: number };

/** Counts KV operations, to hold the "an idle poll writes nothing" promise to account. */
function countingKv(kv: KVNamespace, counts: KvCounts): KVNamespace {
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
  queue?: Queue;
}) {
  const botToken = options.botToken ?? `xoxb-test-${crypto.randomUUID()}`;
  const kv: KvCounts = { reads: 0, writes: 0, deletes: 0, lists: 0 };
  const botEnv = {
    ...env,
    STATE: countingKv(env.STATE, kv),
    DECIPHER_API_KEY: options.apiKey,
    SLACK_BOT_TOKEN: botToken,
    ADMIN_USER_IDS: options.adminUserIds ?? "",
    POLL_QUEUE: options.queue,
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

  async function responseUrl(channelId: string, userId: string, messageTs?: string): Promise<string> {
    return (
      await postJson<{ responseUrl: string }>(`${standInUrl}/__slack/response-urls`, {
        botToken,
        channelId,
        userId,
        ...(messageTs ? { messageTs } : {}),
      })
    ).responseUrl;
  }

  const bot = {
    botToken,
    team,
    env: botEnv,
    kv,
    send,
    /** Fires the cron as Cloudflare would. */
    async cron(at: Date = ordinaryNow()) {
      const ctx = createExecutionContext();
      await worker.scheduled(
        createScheduledController({ scheduledTime: at, cron: "* * * * *" }),
        botEnv,
        ctx,
      );
      await waitOnExecutionContext(ctx);
    },
    signedPost,
    /** A slash command exactly as Slack sends it; returns the ack. */
    async command(command: string, text: string, opts: { channelId?: string; userId?: string } = {}) {
      const channelId = opts.channelId ?? "C0ALERTS";
      const userId = opts.userId ?? "U0ALICE";
      const responseUrlOf = await responseUrl(channelId, userId);
      return signedPost(
        slashCommandBody({
          teamId: await team(),
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
      opts: { channelId?: string; userId?: string; value?: string } = {},
    ) {
      const channelId = opts.channelId ?? message.channel ?? "C0ALERTS";
      const userId = opts.userId ?? "U0ALICE";
      const button = findButton(message, actionId);
      if (!button) throw new Error(`no ${actionId} button in message ${message.ts}`);
      const teamOf = await team();
      const payload = {
        type: "block_actions",
        user: { id: userId, username: "alice", name: "alice", team_id: teamOf },
        api_app_id: "A0TEST",
        token: "legacy-verification-token",
        container: {
          type: "message",
          message_ts: message.ts,
          channel_id: channelId,
          is_ephemeral: !!message.ephemeral,
        },
        trigger_id: "1.2.3",
        team: { id: teamOf, domain: "test" },
        channel: { id: channelId, name: "alerts" },
        response_url: await responseUrl(channelId, userId, message.ts),
        actions: [
          {
            type: "button",
            action_id: actionId,
            block_id: button.blockId,
            value: opts.value ?? button.value,
            text: { type: "plain_text", text: "x" },
            action_ts: String(Date.now() / 1000),
          },
        ],
      };
      return signedPost(new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
    },
    async messages(channelId = "C0ALERTS"): Promise<StoredMessage[]> {
      const q = new URLSearchParams({ botToken, channel: channelId });
      const res = await fetch(`${standInUrl}/__slack/messages?${q}`);
      return ((await res.json()) as { messages: StoredMessage[] }).messages;
    },
    /** What the channel shows from the bot: its posts, without ephemeral replies or seeded chatter. */
    async posted(channelId = "C0ALERTS"): Promise<StoredMessage[]> {
      const res = await fetch(
        `${standInUrl}/__slack/messages?${new URLSearchParams({ botToken, channel: channelId })}`,
      );
      const { messages } = (await res.json()) as { messages: StoredMessage[] };
      return messages.filter((m) => m.bot_id && !m.ephemeral);
    },
    async slackCalls(): Promise<Array<{ method: string; error?: string; [k: string]: unknown }>> {
      const res = await fetch(`${standInUrl}/__slack/calls?botToken=${encodeURIComponent(botToken)}`);
      return ((await res.json()) as { calls: Array<{ method: string; error?: string }> }).calls;
    },
    async slackFault(
      method: string,
      kind: "429" | "500" | "error" | "hang" | "lost",
      count = 1,
      extra: Record<string, unknown> = {},
    ) {
      await postJson(`${standInUrl}/__slack/faults`, { botToken, method, kind, count, ...extra });
    },
    /** Block types Slack has not rolled out to this workspace yet (e.g. charts and tables). */
    async blockRollout(refuse: string[]) {
      await postJson(`${standInUrl}/__slack/block-rollout`, { botToken, refuse });
    },
    /** Who Slack notified of a mention, oldest first (new messages only, never edits). */
    async pings(): Promise<Array<{ target: string; channel: string; ts: string; threadTs?: string }>> {
      const res = await fetch(`${standInUrl}/__slack/pings?botToken=${encodeURIComponent(botToken)}`);
      return ((await res.json()) as { pings: Array<{ target: string; channel: string; ts: string }> }).pings;
    },
  };
  createdBots.push(bot);
  return bot;
}

export type Bot = ReturnType<typeof createBot>;

/** A slash command's form body, field for field as Slack sends it. */
export function slashCommandBody(c: {
  teamId: string;
  channelId: string;
  userId: string;
  command: string;
  text: string;
  responseUrl: string;
}): string {
  return new URLSearchParams({
    token: "legacy-verification-token",
    team_id: c.teamId,
    team_domain: "test",
    channel_id: c.channelId,
    channel_name: "alerts",
    user_id: c.userId,
    user_name: "alice",
    command: c.command,
    text: c.text,
    api_app_id: "A0TEST",
    is_enterprise_install: "false",
    response_url: c.responseUrl,
    trigger_id: "1.2.3",
  }).toString();
}

function findButton(message: StoredMessage, actionId: string): { blockId: string; value?: string } | null {
  for (const block of message.blocks ?? []) {
    const elements = [
      ...((block.elements as Array<Record<string, unknown>> | undefined) ?? []),
      ...(block.accessory ? [block.accessory as Record<string, unknown>] : []),
    ];
    const found = elements.find((e) => e.type === "button" && e.action_id === actionId);
    if (found) {
      return {
        blockId: String(block.block_id ?? ""),
        ...(typeof found.value === "string" ? { value: found.value } : {}),
      };
    }
  }
  return null;
}

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
