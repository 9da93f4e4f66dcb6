import { Hono } from "hono";
import { adminRoutes } from "./admin.ts";
import { adminEventRoutes } from "./admin-events.ts";
import { adminPlatformRoutes } from "./admin-platform.ts";
import { OAuthServer, oauthAccessHandler, oauthRoutes } from "./oauth.ts";
import { type PageConfig, pageRoutes } from "./page/routes.ts";
import { ResponseUrls } from "./response-urls.ts";
import type { RateLimitConfig } from "./standin-types.ts";
import { webApiHandler } from "./web-api.ts";
import { Workspaces } from "./workspaces.ts";

// The whole stand-in as one runtime-agnostic Hono app; standin-server.ts only puts it on a socket.

export type SlackStandInConfig = {
  /** The bot's Request URL (its /slack/events) for slash commands and button clicks. */
  botUrl?: string;
  signingSecret?: string;
  /** The sandbox's workspace: used by /__slack/* when a request names no botToken. */
  botToken?: string;
  /** chat.postMessage per-channel throttling; off unless given (tests stay deterministic). */
  rateLimit?: RateLimitConfig | null;
  /** The app's unfurl domains: links to them in a posted message send `link_shared`. */
  unfurlDomains?: string[];
  /** The bot's DECIPHER_APP_URL, so the page suggests links the bot unfurls. */
  appUrl?: string;
  /** The sandbox's own workspace on the page: its name and its organization's example ids. */
  workspace?: PageConfig["workspace"];
  fetch?: typeof fetch;
};

export function createSlackStandInApp(config: SlackStandInConfig = {}) {
  const workspaces = new Workspaces({ rateLimit: config.rateLimit ?? null });
  const responseUrls = new ResponseUrls();
  const app = new Hono();

  // The sandbox page (GET /, /page/*) and its poll controls (/__sandbox/*): dev/slack/page/.
  app.route("/", pageRoutes(config));

  const oauth = new OAuthServer(workspaces);
  app.route("/oauth/v2", oauthRoutes(oauth, config.botToken));
  app.post("/api/oauth.v2.access", (c) => oauthAccessHandler(oauth)(c.req.raw));
  app.post("/__slack/oauth/rotation", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { on?: boolean; expiresInSeconds?: number };
    oauth.rotation = { on: body.on === true, expiresInSeconds: body.expiresInSeconds ?? 43_200 };
    return c.json({ ok: true, rotation: oauth.rotation });
  });
  app.post("/__slack/oauth/offer", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { botToken?: string; label?: string };
    if (!body.botToken) return c.json({ ok: false, error: "botToken is required" }, 400);
    if (!oauth.offered.some((w) => w.seedToken === body.botToken))
      oauth.offered.push({ seedToken: body.botToken, label: body.label ?? "Another workspace" });
    // The workspace is called what the consent page offers it as.
    if (body.label) workspaces.get(body.botToken).teamName = body.label;
    return c.json({ ok: true });
  });
  app.get("/__slack/oauth/refreshes", (c) =>
    c.json({ ok: true, refreshes: oauth.refreshes.get(c.req.query("botToken") ?? "") ?? 0 }),
  );

  app.on(["GET", "POST"], "/api/:method", webApiHandler(workspaces));

  app.post("/response/:id", async (c) => {
    const body: unknown = await c.req.json().catch(() => undefined);
    const reply = responseUrls.post(c.req.param("id"), body, () => workspaces.clock.next());
    return c.json(reply.body, reply.status as 200);
  });

  app.route("/__slack", adminRoutes(workspaces, responseUrls, config));
  app.route("/__slack", adminEventRoutes(workspaces, config));
  app.route("/__slack", adminPlatformRoutes(workspaces, config.botToken));

  app.notFound((c) => c.json({ ok: false, error: "not_found" }, 404));
  return { app, workspaces, responseUrls };
}
