import { signSlackRequest } from "../dev/slack/sign.ts";

/** Requests exactly as Slack sends them to the bot: form-encoded, signed, fresh timestamp. */

export type Target = { botUrl: string; slackUrl: string; signingSecret: string; botToken: string };

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** A real `response_url` from the stand-in (5 uses each), so the lazy reply has somewhere to go. */
export async function mintResponseUrl(t: Target, channelId: string, userId = "U0ALICE"): Promise<string> {
  return (
    await postJson<{ responseUrl: string }>(`${t.slackUrl}/__slack/response-urls`, {
      botToken: t.botToken,
      channelId,
      userId,
    })
  ).responseUrl;
}

async function signed(t: Target, body: string): Promise<Request> {
  const headers = await signSlackRequest(t.signingSecret, body, Math.floor(Date.now() / 1000));
  return new Request(`${t.botUrl}/slack/events`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
}

export function commandBody(command: string, text: string, channelId: string, responseUrl: string): string {
  return new URLSearchParams({
    token: "legacy-verification-token",
    team_id: "T0TEST",
    team_domain: "test",
    channel_id: channelId,
    channel_name: "alerts",
    user_id: "U0ALICE",
    user_name: "alice",
    command,
    text,
    api_app_id: "A0TEST",
    is_enterprise_install: "false",
    response_url: responseUrl,
    trigger_id: "1.2.3",
  }).toString();
}

export async function commandRequest(t: Target, command: string, text: string, channelId = "C0ALERTS") {
  return signed(t, commandBody(command, text, channelId, await mintResponseUrl(t, channelId)));
}

/** A click on a session card's **Timeline** button (action `session_timeline`, value = session id). */
export async function timelineClickRequest(t: Target, sessionId: string, channelId = "C0ALERTS") {
  const payload = {
    type: "block_actions",
    user: { id: "U0ALICE", username: "alice", name: "alice", team_id: "T0TEST" },
    api_app_id: "A0TEST",
    token: "legacy-verification-token",
    container: {
      type: "message",
      message_ts: "1732200000.000100",
      channel_id: channelId,
      is_ephemeral: true,
    },
    trigger_id: "1.2.3",
    team: { id: "T0TEST", domain: "test" },
    channel: { id: channelId, name: "alerts" },
    response_url: await mintResponseUrl(t, channelId),
    actions: [
      {
        type: "button",
        action_id: "session_timeline",
        block_id: "bench",
        value: sessionId,
        text: { type: "plain_text", text: "Timeline" },
        action_ts: String(Date.now() / 1000),
      },
    ],
  };
  return signed(t, new URLSearchParams({ payload: JSON.stringify(payload) }).toString());
}
