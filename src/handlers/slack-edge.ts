import type { ExecutionContext } from "slack-edge";
import { readForm } from "../util/form.ts";
import { inRequest } from "../wiring.ts";
import { routeEnvelope } from "./events/event-envelope.ts";
import { routeForm } from "./interactions.ts";
import type { LeanSlackApp } from "./lean-slack-app.ts";
import { isSslCheck, readSignedRequest, type SignedBody } from "./signed-request.ts";

/** The bot's one Request URL, for commands, interactivity and events alike. */
export type SlackEdge = { handle(req: Request, ctx: ExecutionContext): Promise<Response> };

/**
 * Multi-workspace mode (src/handlers/install/tenants.ts): which Slack app (built with that
 * team's token and key) a signed body goes to, or the answer when there is none; and the
 * install lifecycle events (uninstall), answered before the envelope check drops them.
 */
export type Tenants = {
  lifecycle(body: unknown, ctx: ExecutionContext): Response | null;
  appFor(body: Record<string, unknown>, origin: string): Promise<LeanSlackApp | Response>;
};

/** slack-edge's own test for a JSON body (its request parser): the content type, or a leading `{`. */
const isJson = (req: Request, text: string) =>
  (req.headers.get("content-type") ?? "").startsWith("application/json") || text.startsWith("{");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * Every request Slack sends, end to end: Slack's certificate check; then the one signature
 * check (src/handlers/signed-request.ts), which reads the body once; then what the Slack app
 * has no listener for is answered here (events the bot ignores, legacy interactions, malformed
 * bodies), and the rest goes, parsed once, to the isolate's Slack app (src/handlers/slack-app.ts)
 * inside `inRequest`, so its handlers draw from a budget of their own. Built once per isolate,
 * by src/app.ts.
 */
export function createSlackEdge(
  app: LeanSlackApp | null,
  key: Promise<CryptoKey>,
  tenants?: Tenants,
): SlackEdge {
  const appFor = async (body: Record<string, unknown>, req: Request) =>
    tenants ? tenants.appFor(body, new URL(req.url).origin) : (app as LeanSlackApp);

  async function route(req: Request, signed: SignedBody, ctx: ExecutionContext): Promise<Response> {
    const { headers } = req;
    if (isJson(req, signed.text)) {
      const body = parseJson(signed.text);
      const lifecycle = tenants?.lifecycle(body, ctx);
      if (lifecycle) return lifecycle;
      const envelope = routeEnvelope(body);
      if ("answer" in envelope) return envelope.answer;
      const target = await appFor(body as Record<string, unknown>, req);
      if (target instanceof Response) return target;
      return target.dispatch({ body: body as Record<string, unknown>, rawBody: signed.text, headers }, ctx);
    }
    const form = routeForm(readForm(signed.text));
    if ("answer" in form) {
      if (form.later) ctx.waitUntil(form.later());
      return form.answer;
    }
    const target = await appFor(form.dispatch, req);
    if (target instanceof Response) return target;
    return target.dispatch({ body: form.dispatch, rawBody: signed.text, headers }, ctx);
  }

  return {
    async handle(req, ctx) {
      if (!req.headers.has("x-slack-signature") && (await isSslCheck(req)))
        return new Response(null, { status: 200 });
      const body = await readSignedRequest(req, key);
      if (body instanceof Response) return body;
      return inRequest(() => route(req, body, ctx));
    },
  };
}
