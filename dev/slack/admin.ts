import { type Context, Hono } from "hono";
import { type DeliveryTarget, deliverAction, deliverCommand } from "./deliver.ts";
import { toInspected } from "./messages.ts";
import type { ResponseUrls } from "./response-urls.ts";
import { verifySlackSignature } from "./sign.ts";
import type { Fault, FaultKind } from "./standin-types.ts";
import { isBotToken, type Workspace, type Workspaces } from "./workspaces.ts";

// `/__slack/*`: what a test or the sandbox page uses to drive and observe the stand-in. Not a
// Slack API — no auth; the workspace is chosen by `botToken` (query or body), defaulting to
// the stand-in's configured bot token.

export type AdminConfig = {
  botUrl?: string;
  signingSecret?: string;
  botToken?: string;
  fetch?: typeof fetch;
};

type Body = Record<string, unknown>;

const FAULT_KINDS: FaultKind[] = ["429", "500", "error", "hang", "lost", "ok-false", "html"];

async function jsonBody(c: Context): Promise<Body> {
  const parsed: unknown = await c.req.json().catch(() => ({}));
  return typeof parsed === "object" && parsed !== null ? (parsed as Body) : {};
}

const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

export function adminRoutes(workspaces: Workspaces, responseUrls: ResponseUrls, config: AdminConfig) {
  const app = new Hono();

  function workspaceFor(c: Context, body: Body = {}): Workspace | Response {
    const token = str(body.botToken) ?? str(c.req.query("botToken")) ?? config.botToken;
    if (!token) return c.json({ ok: false, error: "botToken is required (no default workspace)" }, 400);
    if (!isBotToken(token)) return c.json({ ok: false, error: "botToken must look like xoxb-…" }, 400);
    return workspaces.get(token);
  }

  function target(c: Context, body: Body): DeliveryTarget | Response {
    const botUrl = str(body.botUrl) ?? config.botUrl;
    const signingSecret = str(body.signingSecret) ?? config.signingSecret;
    if (!botUrl || !signingSecret) {
      return c.json({ ok: false, error: "no botUrl/signingSecret configured for delivery" }, 400);
    }
    return { botUrl, signingSecret };
  }

  const deps = (c: Context, ws: Workspace) => ({
    ws,
    responseUrls,
    origin: new URL(c.req.url).origin,
    nextTs: () => workspaces.clock.next(),
    fetch: config.fetch,
  });

  app.get("/workspace", (c) => {
    const ws = workspaceFor(c);
    if (ws instanceof Response) return ws;
    return c.json({
      ok: true,
      team_id: ws.teamId,
      team: ws.teamName,
      domain: ws.domain,
      channels: [...ws.channels.values()],
      users: [...ws.users.values()],
      user_groups: ws.userGroups,
      rate_limit: ws.rateLimit,
    });
  });

  app.get("/messages", (c) => {
    const ws = workspaceFor(c);
    if (ws instanceof Response) return ws;
    const channel = c.req.query("channel");
    const thread = c.req.query("thread_ts");
    const messages = ws.messages
      .filter((m) => !channel || m.channel === channel)
      .filter((m) => !thread || m.threadTs === thread)
      .sort((a, b) => a.ts.localeCompare(b.ts))
      .map(toInspected);
    return c.json({ ok: true, messages });
  });

  app.get("/calls", (c) => {
    const ws = workspaceFor(c);
    if (ws instanceof Response) return ws;
    const method = c.req.query("method");
    return c.json({ ok: true, calls: ws.calls.filter((call) => !method || call.method === method) });
  });

  app.post("/faults/clear", async (c) => {
    const ws = workspaceFor(c, await jsonBody(c));
    if (ws instanceof Response) return ws;
    ws.faults.length = 0;
    return c.json({ ok: true, faults: ws.faults });
  });

  app.post("/faults", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const kind = String(body.kind) as FaultKind;
    const method = str(body.method);
    if (!method || !FAULT_KINDS.includes(kind)) {
      return c.json({ ok: false, error: `need method and kind (${FAULT_KINDS.join("|")})` }, 400);
    }
    const fault: Fault = {
      method,
      kind,
      error: str(body.error),
      details: Array.isArray(body.details) ? body.details.map(String) : undefined,
      status: typeof body.status === "number" ? body.status : undefined,
      retryAfter: typeof body.retryAfter === "number" ? body.retryAfter : undefined,
      delayMs: typeof body.delayMs === "number" ? Math.min(Math.max(body.delayMs, 0), 120_000) : undefined,
      remaining: typeof body.count === "number" ? body.count : 1,
    };
    ws.faults.push(fault);
    return c.json({ ok: true, faults: ws.faults });
  });

  app.post("/rate-limit", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const enabled = body.enabled !== false;
    workspaces.setRateLimit(
      ws,
      enabled
        ? {
            perSecond: typeof body.perSecond === "number" ? body.perSecond : 1,
            burst: typeof body.burst === "number" ? body.burst : 3,
          }
        : null,
    );
    return c.json({ ok: true, rate_limit: ws.rateLimit });
  });

  /**
   * Slack's phased rollout of new blocks: `refuse` lists the block types this workspace does
   * not have yet (e.g. `["data_visualization", "table"]`); `[]` gives it every block.
   */
  app.post("/block-rollout", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    if (!Array.isArray(body.refuse) || !body.refuse.every((t) => typeof t === "string" && t !== ""))
      return c.json({ ok: false, error: "refuse must be a list of block types" }, 400);
    ws.refusedBlocks = new Set(body.refuse as string[]);
    return c.json({ ok: true, refuse: [...ws.refusedBlocks] });
  });

  /** Who Slack notified, oldest first: each mention in a new message, never in an edit. */
  app.get("/pings", (c) => {
    const ws = workspaceFor(c);
    if (ws instanceof Response) return ws;
    const target = c.req.query("target");
    return c.json({ ok: true, pings: target ? ws.pings.filter((p) => p.target === target) : ws.pings });
  });

  app.post("/reset", async (c) => {
    const body = await jsonBody(c);
    const token = str(body.botToken) ?? str(c.req.query("botToken"));
    workspaces.reset(token);
    return c.json({ ok: true });
  });

  app.post("/response-urls", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const channel = str(body.channelId);
    const user = str(body.userId);
    if (!channel || !ws.channels.has(channel) || !user || !ws.users.has(user)) {
      return c.json({ ok: false, error: "need a known channelId and userId" }, 400);
    }
    const ageMs = typeof body.ageSeconds === "number" ? body.ageSeconds * 1000 : 0;
    const id = responseUrls.create({ workspace: ws, channel, user, sourceTs: str(body.messageTs) }, ageMs);
    return c.json({ ok: true, responseUrl: `${new URL(c.req.url).origin}/response/${id}` });
  });

  app.post("/commands", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const t = target(c, body);
    if (t instanceof Response) return t;
    const result = await deliverCommand(deps(c, ws), t, {
      command: str(body.command) ?? "",
      text: typeof body.text === "string" ? body.text : "",
      channelId: str(body.channelId) ?? "",
      userId: str(body.userId) ?? "U0ALICE",
    });
    if ("error" in result) return c.json({ ok: false, error: result.error }, result.status);
    return c.json(result);
  });

  app.post("/actions", async (c) => {
    const body = await jsonBody(c);
    const ws = workspaceFor(c, body);
    if (ws instanceof Response) return ws;
    const t = target(c, body);
    if (t instanceof Response) return t;
    const result = await deliverAction(deps(c, ws), t, {
      channelId: str(body.channelId) ?? "",
      userId: str(body.userId) ?? "U0ALICE",
      messageTs: str(body.messageTs) ?? "",
      actionId: str(body.actionId) ?? "",
      blockId: str(body.blockId),
      value: typeof body.value === "string" ? body.value : undefined,
      selectedValue: str(body.selectedValue),
      responseUrl: str(body.responseUrl),
    });
    if ("error" in result) return c.json({ ok: false, error: result.error }, result.status);
    return c.json(result);
  });

  // A receiver that checks the signature the way the bot does and says what it got, so the
  // delivery path can be tested end to end without a bot.
  app.post("/echo", async (c) => {
    const raw = await c.req.text();
    const secret = c.req.query("secret") ?? config.signingSecret;
    const timestamp = c.req.header("x-slack-request-timestamp");
    const signature = c.req.header("x-slack-signature");
    const check = secret
      ? await verifySlackSignature(secret, raw, timestamp, signature)
      : { valid: false as const, reason: "no signing secret configured" };
    const form = Object.fromEntries(new URLSearchParams(raw));
    return c.json({
      ok: true,
      verified: check.valid,
      ...(check.valid ? {} : { reason: check.reason }),
      headers: {
        contentType: c.req.header("content-type") ?? null,
        timestamp: timestamp ?? null,
        signature: signature ?? null,
        userAgent: c.req.header("user-agent") ?? null,
      },
      raw,
      form,
      ...(form.payload ? { payload: JSON.parse(form.payload) } : {}),
    });
  });

  return app;
}
