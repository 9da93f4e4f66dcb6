import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSlackStandInApp, type SlackStandInConfig } from "./standin-app.ts";

/** The stand-in's own settings (standin-app.ts), and where to listen. */
export type SlackStandInOptions = Omit<SlackStandInConfig, "fetch"> & {
  port?: number;
  host?: string;
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
