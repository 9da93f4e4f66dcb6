import { Hono } from "hono";
import { readApiRequest, stringParam } from "./api-params.ts";
import { slackError } from "./content.ts";
import { APP_ID, BOT_USER_ID } from "./seed.ts";
import type { Workspaces } from "./workspaces.ts";

// Slack's side of Add to Slack: the consent page (/oauth/v2/authorize), its Allow and Cancel,
// and `oauth.v2.access` (a code, or a refresh token when rotation is on), with Slack's error
// bodies. Which workspace approves is chosen on the page (each workspace is a seed token, as
// everywhere in the stand-in); the token the app gets is a new one for that workspace.

export const STANDIN_CLIENT_ID = "1234567890.0987654321";
export const STANDIN_CLIENT_SECRET = "standin-client-secret";

/** Token rotation, as the app's setting: off unless a test turns it on (`POST /__slack/oauth/rotation`). */
export type Rotation = { on: boolean; expiresInSeconds: number };

type Code = {
  seedToken: string;
  redirectUri: string;
  scope: string;
  userId: string;
  used: boolean;
  at: number;
};
type Refresh = { seedToken: string; scope: string; valid: boolean };

const CODE_TTL_MS = 10 * 60 * 1000;
const random = () => crypto.randomUUID().replace(/-/g, "");
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

export class OAuthServer {
  readonly #workspaces: Workspaces;
  readonly #codes = new Map<string, Code>();
  readonly #refresh = new Map<string, Refresh>();
  /** Per seed token: how many refresh grants Slack answered (tests count them). */
  readonly refreshes = new Map<string, number>();
  rotation: Rotation = { on: false, expiresInSeconds: 43_200 };
  /** The workspaces the consent page offers: the sandbox's, and any a test names. */
  readonly offered: Array<{ seedToken: string; label: string }> = [];

  constructor(workspaces: Workspaces) {
    this.#workspaces = workspaces;
  }

  /** Allow: a one-time code for the chosen workspace, as Slack redirects with it. */
  approve(seedToken: string, redirectUri: string, scope: string, userId = "U0ALICE"): string {
    const code = `${Date.now()}.${random()}`;
    this.#codes.set(code, { seedToken, redirectUri, scope, userId, used: false, at: Date.now() });
    return code;
  }

  #tokens(seedToken: string, scope: string) {
    const access = `xoxb-oauth-${random()}`;
    const ws = this.#workspaces.get(seedToken);
    if (this.rotation.on) {
      this.#workspaces.alias(access, ws, Date.now() + this.rotation.expiresInSeconds * 1000);
      const refresh = `xoxe-1-${random()}`;
      this.#refresh.set(refresh, { seedToken, scope, valid: true });
      return { access_token: access, refresh_token: refresh, expires_in: this.rotation.expiresInSeconds };
    }
    this.#workspaces.alias(access, ws, null);
    return { access_token: access };
  }

  /** `oauth.v2.access`: Slack's checks in Slack's order, and its error names. */
  access(params: Record<string, unknown>): Record<string, unknown> {
    const clientId = stringParam(params, "client_id");
    const secret = stringParam(params, "client_secret");
    if (!clientId) return slackError("invalid_client_id");
    if (clientId !== STANDIN_CLIENT_ID) return slackError("invalid_client_id");
    if (secret !== STANDIN_CLIENT_SECRET) return slackError("bad_client_secret");
    const grant = stringParam(params, "grant_type") ?? "authorization_code";
    if (grant === "refresh_token") {
      const token = stringParam(params, "refresh_token") ?? "";
      const known = this.#refresh.get(token);
      if (!known?.valid) return slackError("invalid_refresh_token");
      // A refresh spends the refresh token: the next refresh must use the new one.
      known.valid = false;
      this.refreshes.set(known.seedToken, (this.refreshes.get(known.seedToken) ?? 0) + 1);
      return {
        ok: true,
        token_type: "bot",
        scope: known.scope,
        ...this.#tokens(known.seedToken, known.scope),
      };
    }
    if (grant !== "authorization_code") return slackError("invalid_grant_type");
    const codeText = stringParam(params, "code");
    if (!codeText) return slackError("invalid_code");
    const code = this.#codes.get(codeText);
    if (!code || Date.now() - code.at > CODE_TTL_MS) return slackError("invalid_code");
    if (code.used) return slackError("code_already_used");
    const redirect = stringParam(params, "redirect_uri");
    if (redirect !== undefined && redirect !== code.redirectUri) return slackError("bad_redirect_uri");
    code.used = true;
    const ws = this.#workspaces.get(code.seedToken);
    return {
      ok: true,
      app_id: APP_ID,
      authed_user: { id: code.userId },
      scope: code.scope,
      token_type: "bot",
      bot_user_id: BOT_USER_ID,
      team: { id: ws.teamId, name: ws.teamName },
      enterprise: null,
      is_enterprise_install: false,
      ...this.#tokens(code.seedToken, code.scope),
    };
  }
}

/** GET /oauth/v2/authorize (the consent page) and its two answers. */
export function oauthRoutes(server: OAuthServer, sandboxToken: string | undefined) {
  const app = new Hono();
  app.get("/authorize", (c) => {
    const q = c.req.query();
    if (q.client_id !== STANDIN_CLIENT_ID) return c.html("<h1>Invalid client_id parameter</h1>", 400);
    const redirect = q.redirect_uri ?? "";
    if (!/^https?:\/\//.test(redirect)) return c.html("<h1>Invalid redirect_uri</h1>", 400);
    const choices = [
      ...(sandboxToken ? [{ seedToken: sandboxToken, label: "Acme Sandbox" }] : []),
      ...server.offered,
    ];
    const link = (decision: string, seedToken: string) =>
      `/oauth/v2/decide?${new URLSearchParams({ ...q, decision, workspace: seedToken })}`;
    const rows = choices
      .map(
        (w) =>
          `<li><a class="allow" href="${escapeHtml(link("allow", w.seedToken))}">Allow in ${escapeHtml(w.label)}</a></li>`,
      )
      .join("");
    return c.html(
      `<!doctype html><meta charset="utf-8"><title>Decipher is requesting permission</title><h1>Decipher is requesting permission to access a workspace</h1><p>It will be able to: ${escapeHtml((q.scope ?? "").split(",").join(", "))}</p><ul>${rows}</ul><p><a class="cancel" href="${escapeHtml(link("cancel", ""))}">Cancel</a></p>`,
    );
  });
  app.get("/decide", (c) => {
    const q = c.req.query();
    const target = new URL(q.redirect_uri ?? "");
    if (q.decision === "allow" && q.workspace) {
      target.searchParams.set(
        "code",
        server.approve(q.workspace, q.redirect_uri ?? "", q.scope ?? "", q.user),
      );
    } else {
      target.searchParams.set("error", "access_denied");
    }
    if (q.state) target.searchParams.set("state", q.state);
    return c.redirect(target.toString(), 302);
  });
  return app;
}

/** `oauth.v2.access` needs no token: it authenticates the app by its client id and secret. */
export function oauthAccessHandler(server: OAuthServer) {
  return async (req: Request) => {
    const { params } = await readApiRequest(req);
    return Response.json(server.access(params));
  };
}
