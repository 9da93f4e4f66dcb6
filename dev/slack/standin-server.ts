import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSlackStandInApp } from "./standin-app.ts";
import type { RateLimitConfig } from "./standin-types.ts";

export type SlackStandInOptions = {
  port?: number;
  host?: string;
  /** Where signed slash commands and interactions are delivered (the bot's /slack/events). */
  botUrl?: string;
  signingSecret?: string;
  /** Default workspace for /__slack/* requests that name none (the sandbox page). */
  botToken?: string;
  /** Throttle chat.postMessage per channel like Slack; off by default. */
  rateLimit?: RateLimitConfig | null;
  /** Hosts whose links send `link_shared` (the app's `app_unfurl_domains`). */
  unfurlDomains?: string[];
  /** The bot's DECIPHER_APP_URL, so the page suggests links the bot unfurls. */
  appUrl?: string;
};

export type RunningSlackStandIn = {
  url: string;
  /** Web API base, like https://slack.com/api/ — ends with a slash. */
  apiUrl: string;
  close(): Promise<void>;
};

export { signSlackRequest } from "./sign.ts";

export async function startSlackStandIn(options: SlackStandInOptions = {}): Promise<RunningSlackStandIn> {
  const { app } = createSlackStandInApp(options);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    apiUrl: `${url}/api/`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Keep-alive sockets from the bot's fetch would otherwise hold close() open.
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
