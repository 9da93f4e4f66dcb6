import type { Context } from "hono";
import { loggableParams, readApiRequest, stringParam } from "./api-params.ts";
import { slackError } from "./content.ts";
import type { Fault } from "./standin-types.ts";
import { HISTORY_METHODS, TIERS } from "./tiers.ts";
import { METHODS } from "./web-api-methods.ts";
import type { Workspace, Workspaces } from "./workspaces.ts";

// `/api/<method>`: the order of checks follows Slack's — unknown method, missing token, bad
// token, then (ours) injected faults and the per-channel rate limit, then the method itself.

type Reply = {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** An HTML page instead of JSON, as a load balancer in front of Slack answers. */
  html?: string;
};

const errorPage = (status: number) =>
  `<!DOCTYPE html><html><head><title>${status} Service Unavailable</title></head><body><h1>Slack is having trouble</h1><p>Please try again.</p></body></html>`;

function takeFault(ws: Workspace, method: string): Fault | undefined {
  const fault = ws.faults.find((f) => (f.method === method || f.method === "*") && f.remaining > 0);
  if (!fault) return undefined;
  fault.remaining -= 1;
  ws.faults = ws.faults.filter((f) => f.remaining > 0);
  return fault;
}

function faultReply(fault: Fault): Reply {
  if (fault.kind === "429") {
    const retryAfter = String(fault.retryAfter ?? 1);
    return { status: 429, body: slackError("ratelimited"), headers: { "Retry-After": retryAfter } };
  }
  if (fault.kind === "500") return { status: 500, body: slackError("internal_error") };
  if (fault.kind === "ok-false") return { status: 200, body: { ok: false } };
  if (fault.kind === "html") {
    const status = fault.status ?? 503;
    return { status, body: { ok: false, error: `html_${status}` }, html: errorPage(status) };
  }
  const details = fault.details?.length
    ? { errors: fault.details, response_metadata: { messages: fault.details } }
    : {};
  return { status: 200, body: slackError(fault.error ?? "internal_error", details) };
}

/**
 * History reads by tier: a distributed app always (1 a minute per method), an internal one only
 * while throttling is on for the workspace (Tier 3), so tests that read freely keep doing so.
 */
function historyLimited(ws: Workspace, method: string): Reply | undefined {
  if (!HISTORY_METHODS.has(method)) return undefined;
  if (ws.distribution === "internal" && !ws.limiter) return undefined;
  const wait = ws.historyWindow.take(method, TIERS[ws.distribution].perMinute);
  if (wait === 0) return undefined;
  return { status: 429, body: slackError("ratelimited"), headers: { "Retry-After": String(wait) } };
}

function rateLimited(ws: Workspace, method: string, channel: string | undefined): Reply | undefined {
  const history = historyLimited(ws, method);
  if (history) return history;
  if (method !== "chat.postMessage" || !ws.limiter || !channel) return undefined;
  const wait = ws.limiter.take(channel);
  if (wait === 0) return undefined;
  return { status: 429, body: slackError("ratelimited"), headers: { "Retry-After": String(wait) } };
}

export function webApiHandler(workspaces: Workspaces) {
  return async (c: Context) => {
    const method = c.req.param("method") ?? "";
    const { token, params } = await readApiRequest(c.req.raw);
    const auth = token ? workspaces.authenticate(token) : undefined;
    const ws = auth?.ok ? auth.workspace : undefined;

    let delayMs = 0;
    const reply = ((): Reply => {
      const handler = METHODS[method];
      if (!handler) return { status: 200, body: slackError("unknown_method", { req_method: method }) };
      if (!token) return { status: 200, body: slackError("not_authed") };
      if (!ws) return { status: 200, body: slackError(auth && !auth.ok ? auth.error : "invalid_auth") };
      const fault = takeFault(ws, method);
      if (fault && fault.kind !== "hang" && fault.kind !== "lost") return faultReply(fault);
      const limited = rateLimited(ws, method, stringParam(params, "channel"));
      if (limited) return limited;
      const done: Reply = {
        status: 200,
        body: handler({ ws, params, nextTs: () => workspaces.clock.next() }),
      };
      if (fault?.kind === "hang") delayMs = fault.delayMs ?? 30_000;
      // The call happened; the answer is lost on the way back.
      if (fault?.kind === "lost") return { status: 500, body: slackError("internal_error") };
      return done;
    })();

    // The call log lives in the caller's workspace; calls nobody can be attributed to are not kept.
    if (ws) {
      const error = reply.body.ok === false && reply.body.error ? String(reply.body.error) : undefined;
      ws.calls.push({
        method,
        params: loggableParams(params),
        status: reply.status,
        ok: reply.body.ok === true,
        ...(error ? { error } : {}),
        at: new Date().toISOString(),
      });
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // Slack names the token's scopes on every answer to a token it knows (docs/slack-platform.md).
    if (ws) c.header("x-oauth-scopes", ws.scopes.join(","));
    for (const [name, value] of Object.entries(reply.headers ?? {})) c.header(name, value);
    if (reply.html) return c.html(reply.html, reply.status as 503);
    return c.json(reply.body, reply.status as 200);
  };
}
