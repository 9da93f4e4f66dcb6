import { env } from "cloudflare:test";
import type { CallRecord } from "../../dev/slack/standin-types.ts";

// Real HTTP from workerd to the one stand-in the global setup started. Each test takes a fresh
// bot token, which is a fresh workspace, so tests never see each other's messages.

if (!env.SLACK_API_URL) throw new Error("SLACK_API_URL is not bound; see vitest.config.ts");
export const apiUrl: string = env.SLACK_API_URL;
export const standInUrl = apiUrl.replace(/\/api\/$/, "");

export const freshToken = () => `xoxb-test-${crypto.randomUUID()}`;

export type SlackBody = { ok: boolean; error?: string; [key: string]: unknown };
export type ApiReply = { status: number; body: SlackBody; headers: Headers };

type CallOptions = { token?: string | null; as?: "form" | "json" };

/** Call a Web API method the way slack-web-api-client does: form fields, objects as JSON text. */
export async function callApi(method: string, params: Record<string, unknown>, options: CallOptions = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string;
  if (options.as === "json") {
    headers["Content-Type"] = "application/json; charset=utf-8";
    body = JSON.stringify(params);
  } else {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params))
      form.set(k, typeof v === "object" ? JSON.stringify(v) : String(v));
    body = form.toString();
  }
  const res = await fetch(`${apiUrl}${method}`, { method: "POST", headers, body });
  return {
    status: res.status,
    body: (await res.json()) as SlackBody,
    headers: res.headers,
  } satisfies ApiReply;
}

/** A client bound to one workspace. */
export function workspace(token = freshToken()) {
  return {
    token,
    call: (method: string, params: Record<string, unknown> = {}, as: "form" | "json" = "form") =>
      callApi(method, params, { token, as }),
    messages: async (query: Record<string, string> = {}) => {
      const q = new URLSearchParams({ botToken: token, ...query });
      const res = await fetch(`${standInUrl}/__slack/messages?${q}`);
      return ((await res.json()) as { messages: InspectedMessage[] }).messages;
    },
    calls: async () => {
      const res = await fetch(`${standInUrl}/__slack/calls?botToken=${encodeURIComponent(token)}`);
      return ((await res.json()) as { calls: CallRecord[] }).calls;
    },
    admin: (path: string, body: Record<string, unknown> = {}) => admin(path, { botToken: token, ...body }),
  };
}

export async function admin(path: string, body: Record<string, unknown>) {
  const res = await fetch(`${standInUrl}/__slack/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & SlackBody };
}

export type InspectedMessage = {
  ts: string;
  channel: string;
  thread_ts: string | null;
  text: string;
  blocks: Array<Record<string, unknown>> | null;
  user: string;
  edited: boolean;
  ephemeral: boolean;
  visible_to: string | null;
  reply_count: number;
  via: string;
};

export const section = (text: string) => ({
  type: "section" as const,
  text: { type: "mrkdwn" as const, text },
});
export const button = (actionId: string, value: string, text = "Go") => ({
  type: "button" as const,
  action_id: actionId,
  value,
  text: { type: "plain_text" as const, text },
});
