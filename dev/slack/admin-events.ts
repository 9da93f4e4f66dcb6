import { type Context, Hono } from "hono";
import { assistantRoutes } from "./admin-assistant.ts";
import type { DeliveryTarget } from "./deliver.ts";
import { outcomeOf, post } from "./deliver.ts";
import {
  appHomeOpenedEvent,
  appMentionEvent,
  directMessageEvent,
  eventEnvelope,
  linkSharedEvent,
  linksIn,
  mentionsBot,
  teamOf,
  viewBlockActionsPayload,
  viewSubmissionPayload,
  withMentionTokens,
} from "./event-payloads.ts";
import { addMessage, resolveChannel, threadParent, toInspected } from "./messages.ts";
import { matchingElements, newTriggerId } from "./payloads.ts";
import type { StoredMessage, User } from "./standin-types.ts";
import { issueTriggerId, viewObject } from "./web-api-views.ts";
import { isBotToken, type Workspace, type Workspaces } from "./workspaces.ts";

// `/__slack/*` for the Events API and views: a person posts a message (→ `link_shared`,
// `app_mention`), opens the app's Home tab (→ `app_home_opened`), clicks a button in a view,
// submits a modal. Each is delivered signed to the bot like Slack does; `deliver: false`
// returns the payloads instead, so tests inside workerd can send them themselves.

export type EventsAdminConfig = {
  botUrl?: string;
  signingSecret?: string;
  botToken?: string;
  /** The app's `app_unfurl_domains`; default the Decipher web app's host. */
  unfurlDomains?: string[];
  fetch?: typeof fetch;
};

export const DEFAULT_UNFURL_DOMAINS = ["app.getdecipher.com"];

type Body = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

async function jsonBody(c: Context): Promise<Body> {
  const parsed: unknown = await c.req.json().catch(() => ({}));
  return typeof parsed === "object" && parsed !== null ? (parsed as Body) : {};
}

export function adminEventRoutes(workspaces: Workspaces, config: EventsAdminConfig) {
  const app = new Hono();
  const fetchFn = config.fetch ?? fetch;

  function workspaceFor(c: Context, body: Body = {}): Workspace | Response {
    const token = str(body.botToken) ?? str(c.req.query("botToken")) ?? config.botToken;
    if (!token || !isBotToken(token))
      return c.json({ ok: false, error: "botToken must look like xoxb-…" }, 400);
    return workspaces.get(token);
  }

  /** The workspace and the (human) person a request acts as. */
  function personFor(c: Context, body: Body): { ws: Workspace; user: User } | Response {
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const user = ws.users.get(str(body.userId) ?? "U0ALICE");
    if (!user || user.isBot) return c.json({ ok: false, error: "user_not_found" }, 404);
    return { ws, user };
  }

  function target(body: Body): DeliveryTarget | null {
    const botUrl = str(body.botUrl) ?? config.botUrl;
    const signingSecret = str(body.signingSecret) ?? config.signingSecret;
    return botUrl && signingSecret ? { botUrl, signingSecret } : null;
  }

  /** Events go out as JSON; Slack retries a failed or slow one once here, with its retry headers. */
  async function deliverEvent(t: DeliveryTarget, envelope: unknown, retryNum?: number, retryReason?: string) {
    const headers: Record<string, string> = retryNum
      ? { "X-Slack-Retry-Num": String(retryNum), "X-Slack-Retry-Reason": retryReason ?? "http_timeout" }
      : {};
    const res = await post(t, JSON.stringify(envelope), fetchFn, "application/json", headers);
    return { ...res, outcome: outcomeOf(res.status, res.elapsedMs) };
  }

  async function deliverAll(body: Body, envelopes: unknown[]) {
    const t = body.deliver === false ? null : target(body);
    if (!t) return [];
    const out = [];
    for (const envelope of envelopes) {
      let result = await deliverEvent(t, envelope);
      if (result.outcome !== "ok") {
        const reason = result.outcome === "operation_timeout" ? "http_timeout" : "http_error";
        result = await deliverEvent(t, envelope, 1, reason);
      }
      out.push(result);
    }
    return out;
  }

  // A person's message: stored like Slack stores it, then `app_mention` and `link_shared`.
  app.post("/user-messages", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const channel = resolveChannel(ws, str(body.channelId));
    const user = ws.users.get(str(body.userId) ?? "U0ALICE");
    const text = typeof body.text === "string" ? withMentionTokens(body.text) : "";
    if (!channel || !user || user.isBot || !text.trim()) {
      return c.json({ ok: false, error: "need a known channelId, a human userId and text" }, 400);
    }
    const threadTs = str(body.threadTs);
    const parent = threadTs ? threadParent(ws, channel.id, threadTs) : undefined;
    if (threadTs && !parent) return c.json({ ok: false, error: "thread_not_found" }, 404);
    const domains = Array.isArray(body.unfurlDomains)
      ? body.unfurlDomains.map(String)
      : (config.unfurlDomains ?? DEFAULT_UNFURL_DOMAINS);
    const links = linksIn(text, domains);
    const message: StoredMessage = addMessage(ws, {
      ts: workspaces.clock.next(),
      channel: channel.id,
      ...(parent ? { threadTs: parent.ts } : {}),
      text,
      user: user.id,
      ephemeral: false,
      via: "user",
      ...(links.length > 0 ? { links } : {}),
    });
    const from = { teamId: user.teamId, shared: channel.isExtShared };
    const envelopes = [
      // In a DM, Slack sends the message itself (message.im), and no app_mention even when it names the app.
      ...(channel.isIm
        ? [eventEnvelope(ws, directMessageEvent(ws, message, teamOf(ws, user)), undefined, from)]
        : []),
      ...(mentionsBot(text) && !channel.isIm
        ? [eventEnvelope(ws, appMentionEvent(ws, message, message.ts, teamOf(ws, user)), undefined, from)]
        : []),
      ...(links.length > 0
        ? [eventEnvelope(ws, linkSharedEvent(message, links, message.ts), undefined, from)]
        : []),
    ];
    const deliveries = await deliverAll(body, envelopes);
    return c.json({ ok: true, message: toInspected(message), events: envelopes, deliveries });
  });

  assistantRoutes(app, {
    workspaces,
    personOf: (body, query) => {
      const token = str(body.botToken) ?? str(query("botToken")) ?? config.botToken;
      if (!token || !isBotToken(token)) return { error: "botToken must look like xoxb-…" };
      const ws = workspaces.get(token);
      const user = ws.users.get(str(body.userId) ?? str(query("userId")) ?? "U0ALICE");
      return user && !user.isBot ? { ws, user } : { error: "user_not_found" };
    },
    deliverAll,
  });

  // The person opens the app's Home tab.
  app.post("/home-opened", async (c) => {
    const body = await jsonBody(c);
    const who = personFor(c, body);
    if (who instanceof Response) return who;
    const { ws, user } = who;
    const home = ws.homeViews.get(user.id);
    const envelope = eventEnvelope(
      ws,
      appHomeOpenedEvent(user, home ? viewObject(ws, home) : null, workspaces.clock.next()),
      undefined,
      { teamId: user.teamId },
    );
    const deliveries = await deliverAll(body, [envelope]);
    return c.json({ ok: true, events: [envelope], deliveries });
  });

  // Any event envelope, as is (tests of retries and malformed events use their own).
  app.post("/events", async (c) => {
    const body = await jsonBody(c);
    const t = target(body);
    if (!t) return c.json({ ok: false, error: "no botUrl/signingSecret configured for delivery" }, 400);
    const retryNum = typeof body.retryNum === "number" ? body.retryNum : undefined;
    return c.json({ ok: true, ...(await deliverEvent(t, body.envelope, retryNum, str(body.retryReason))) });
  });

  // What a person sees of the app's views: their Home tab and their open modals.
  app.get("/views", (c) => {
    const ws = workspaceFor(c);
    if (ws instanceof Response) return ws;
    const userId = c.req.query("userId") ?? "U0ALICE";
    const home = ws.homeViews.get(userId);
    return c.json({
      ok: true,
      home: home ? viewObject(ws, home) : null,
      modals: ws.modals.filter((m) => m.userId === userId && m.open).map((m) => viewObject(ws, m)),
    });
  });

  app.post("/trigger-ids", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const userId = str(body.userId) ?? "U0ALICE";
    const ageMs = typeof body.ageSeconds === "number" ? body.ageSeconds * 1000 : 0;
    return c.json({ ok: true, triggerId: issueTriggerId(ws, newTriggerId(), userId, Date.now() - ageMs) });
  });

  // A button in the person's Home tab (or open modal) → `block_actions` with a view container.
  app.post("/view-actions", async (c) => {
    const body = await jsonBody(c);
    const who = personFor(c, body);
    if (who instanceof Response) return who;
    const { ws, user } = who;
    const viewId = str(body.viewId);
    const stored = viewId
      ? [...ws.homeViews.values(), ...ws.modals].find((v) => v.id === viewId && v.userId === user.id)
      : ws.homeViews.get(user.id);
    if (!stored) return c.json({ ok: false, error: "view_not_found" }, 404);
    const matches = matchingElements(
      { blocks: stored.view.blocks as StoredMessage["blocks"] },
      {
        actionId: str(body.actionId) ?? "",
        blockId: str(body.blockId),
        value: typeof body.value === "string" ? body.value : undefined,
      },
    ).filter((m) => m.element.type === "button");
    const button = matches[0];
    if (!button) return c.json({ ok: false, error: "button_not_found" }, 404);
    if (matches.length > 1) {
      const error = `ambiguous_action: ${matches.length} buttons have action_id ${str(body.actionId)}; give the clicked one's blockId`;
      return c.json({ ok: false, error }, 400);
    }
    const payload = viewBlockActionsPayload({
      ws,
      user,
      view: viewObject(ws, stored),
      button,
      triggerId: issueTriggerId(ws, newTriggerId(), user.id),
      actionTs: workspaces.clock.next(),
    });
    const t = body.deliver === false ? null : target(body);
    if (!t) return c.json({ ok: true, payload });
    const res = await post(t, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), fetchFn);
    return c.json({ ok: true, payload, ...res, outcome: outcomeOf(res.status, res.elapsedMs) });
  });

  // The person submits an open modal: errors keep it open, anything else closes it.
  app.post("/view-submissions", async (c) => {
    const body = await jsonBody(c);
    const who = personFor(c, body);
    if (who instanceof Response) return who;
    const { ws, user } = who;
    const viewId = str(body.viewId);
    const stored = ws.modals.find((m) => m.open && m.userId === user.id && (!viewId || m.id === viewId));
    if (!stored) return c.json({ ok: false, error: "view_not_found" }, 404);
    const values = (typeof body.values === "object" && body.values ? body.values : {}) as Record<
      string,
      string
    >;
    const payload = viewSubmissionPayload({ ws, user, view: viewObject(ws, stored), values, stored });
    const t = body.deliver === false ? null : target(body);
    if (!t) return c.json({ ok: true, payload });
    const res = await post(t, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), fetchFn);
    const outcome = outcomeOf(res.status, res.elapsedMs);
    const ack = typeof res.body === "object" && res.body ? (res.body as Body) : {};
    const errors = ack.response_action === "errors" ? ack.errors : undefined;
    if (outcome === "ok" && !errors) stored.open = false;
    return c.json({
      ok: true,
      payload,
      ...res,
      outcome,
      ...(errors ? { errors } : {}),
      closed: !stored.open,
    });
  });

  // The person closes a modal without submitting (no view_closed: the app did not ask for it).
  app.post("/view-close", async (c) => {
    const body = await jsonBody(c);
    const who = personFor(c, body);
    if (who instanceof Response) return who;
    const modal = who.ws.modals.find((m) => m.open && m.userId === who.user.id && m.id === str(body.viewId));
    if (!modal) return c.json({ ok: false, error: "view_not_found" }, 404);
    modal.open = false;
    return c.json({ ok: true });
  });

  return app;
}
