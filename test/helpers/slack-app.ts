import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { newOrg, type StoredMessage, signingSecret, standIn, standInUrl } from "../../dev/in-workerd/bot.ts";
import { clickFor, madeUpControl, slashCommandFor } from "../../dev/slack/payloads.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { type Env, readConfig } from "../../src/config.ts";
import type { ParsedRequest } from "../../src/handlers/lean-slack-app.ts";
import { createSlackApp } from "../../src/handlers/slack-app.ts";
import type { AlertControl, SubscriptionRef } from "../../src/model/alert-control.ts";
import type { TriageAction, TriageOutcome } from "../../src/model/triage-state.ts";
import { createDeps, inRequest } from "../../src/wiring.ts";

/**
 * The Slack app alone, with deps the test chooses (a fake AlertControl), driven by signed
 * requests like Slack's, answering through the Slack stand-in's response URLs.
 */

export type TriageCall = { ref: SubscriptionRef; action: TriageAction; now: Date };

/**
 * Records every triage call and keeps a little state so repeated clicks read naturally: a
 * second acknowledgement by the same person is "already", a ref in `gone` is an old alert.
 * Everything else goes to the real control (`delegate`), so commands still work.
 */
export class FakeAlertControl implements AlertControl {
  delegate: AlertControl | null = null;
  readonly calls: TriageCall[] = [];
  readonly gone = new Set<string>();
  readonly looking = new Map<string, string[]>();
  failWith: Error | null = null;

  static key(ref: SubscriptionRef) {
    return `${ref.teamId}/${ref.channelId}/${ref.kind}/${ref.id}`;
  }

  async triage(ref: SubscriptionRef, action: TriageAction, now: Date): Promise<TriageOutcome> {
    this.calls.push({ ref, action, now });
    if (this.failWith) throw this.failWith;
    const key = FakeAlertControl.key(ref);
    if (this.gone.has(key))
      return { ok: false, reason: "gone", note: `This channel no longer watches ${ref.kind} ${ref.id}.` };
    if (action.type === "acknowledge") {
      const users = this.looking.get(key) ?? [];
      if (users.includes(action.userId)) return { ok: true, note: "You are already marked as looking." };
      this.looking.set(key, [...users, action.userId]);
      return { ok: true, note: `Marked you as looking (${users.length + 1} looking).` };
    }
    return { ok: true, note: `${action.type} done.` };
  }

  private real(): AlertControl {
    if (!this.delegate) throw new Error("FakeAlertControl has no delegate");
    return this.delegate;
  }
  subscribe: AlertControl["subscribe"] = (...args) => this.real().subscribe(...args);
  unsubscribe: AlertControl["unsubscribe"] = (...args) => this.real().unsubscribe(...args);
  subscription: AlertControl["subscription"] = (ref) => this.real().subscription(ref);
  setDigest: AlertControl["setDigest"] = (...args) => this.real().setDigest(...args);
  setWeekly: AlertControl["setWeekly"] = (...args) => this.real().setWeekly(...args);
  health: AlertControl["health"] = (teamId) => this.real().health(teamId);
  channelIndex: AlertControl["channelIndex"] = (...args) => this.real().channelIndex(...args);
  periodRuns: AlertControl["periodRuns"] = (...args) => this.real().periodRuns(...args);
  stateNow: AlertControl["stateNow"] = (...args) => this.real().stateNow(...args);
  postLanded: AlertControl["postLanded"] = (...args) => this.real().postLanded(...args);
}

export const TEAM_ID = "T0TEST";
export const CHANNEL_ID = "C0ALERTS";

/** A form body as slack-edge parses it: an interaction's `payload` JSON, or a command's fields. */
function parsedBody(rawBody: string): ParsedRequest["body"] {
  const form = new URLSearchParams(rawBody);
  const payload = form.get("payload");
  return payload == null ? Object.fromEntries(form) : JSON.parse(payload);
}

export async function slackApp(options: { adminUserIds?: string; alertControl?: FakeAlertControl } = {}) {
  const botToken = `xoxb-test-${crypto.randomUUID()}`;
  // The workspace is TEAM_ID, as every request below names it: a request naming another team
  // comes from another organization (src/handlers/outsiders.ts).
  await standIn.team(botToken, TEAM_ID);
  const botEnv = {
    ...(env as unknown as Env),
    DECIPHER_API_KEY: await newOrg(),
    SLACK_BOT_TOKEN: botToken,
    ADMIN_USER_IDS: options.adminUserIds ?? "",
  };
  const real = createDeps(readConfig(botEnv), botEnv, { interactive: true });
  const alertControl = options.alertControl ?? new FakeAlertControl();
  alertControl.delegate = real.control;
  const deps = { ...real, control: alertControl };
  const app = createSlackApp(deps);

  async function send(rawBody: string) {
    const headers = new Headers({
      "content-type": "application/x-www-form-urlencoded",
      ...(await signSlackRequest(signingSecret, rawBody, Math.floor(Date.now() / 1000))),
    });
    const ctx = createExecutionContext();
    const res = await inRequest(() => app.dispatch({ body: parsedBody(rawBody), rawBody, headers }, ctx));
    const text = await res.text();
    await waitOnExecutionContext(ctx);
    return { status: res.status, body: text };
  }

  const responseUrl = (channelId: string, userId: string, messageTs?: string) =>
    standIn.responseUrl(botToken, channelId, userId, messageTs);

  /** Posts a message as the bot, to click controls on or to stand for a command's ack. */
  async function postMessage(text: string, opts: { ephemeralTo?: string; channelId?: string } = {}) {
    const method = opts.ephemeralTo ? "chat.postEphemeral" : "chat.postMessage";
    const res = await fetch(`${standInUrl}/api/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${botToken}` },
      body: JSON.stringify({
        channel: opts.channelId ?? CHANNEL_ID,
        text,
        ...(opts.ephemeralTo ? { user: opts.ephemeralTo } : {}),
      }),
    });
    const json = (await res.json()) as { ts?: string; message_ts?: string };
    return json.ts ?? json.message_ts ?? "";
  }

  return {
    deps,
    alertControl,
    responseUrl,
    postMessage,
    /** A click on a button or a pick in a static select, exactly as Slack sends it. */
    async act(
      actionId: string,
      value: string,
      opts: {
        userId?: string;
        channelId?: string;
        teamId?: string;
        select?: boolean;
        messageTs?: string;
      } = {},
    ) {
      const channelId = opts.channelId ?? CHANNEL_ID;
      const userId = opts.userId ?? "U0ALICE";
      const teamId = opts.teamId ?? TEAM_ID;
      const messageTs = opts.messageTs ?? (await postMessage("an alert", { channelId }));
      return send(
        clickFor({
          teamId,
          channelId,
          userId,
          responseUrl: await responseUrl(channelId, userId, messageTs),
          messageTs,
          button: madeUpControl(actionId, value, opts.select ? "static_select" : "button"),
          ...(opts.select ? { selectedValue: value } : {}),
        }),
      );
    },
    /** A slash command whose response URL replaces `ackTs` (the shown ack), as Slack does. */
    async command(
      command: string,
      text: string,
      opts: { userId?: string; channelId?: string; ackTs?: string } = {},
    ) {
      const channelId = opts.channelId ?? CHANNEL_ID;
      const userId = opts.userId ?? "U0ALICE";
      const url = await responseUrl(channelId, userId, opts.ackTs);
      return send(slashCommandFor({ teamId: TEAM_ID, channelId, userId, command, text, responseUrl: url }));
    },
    messages: (channelId = CHANNEL_ID) => standIn.messages<StoredMessage>(botToken, channelId),
  };
}
