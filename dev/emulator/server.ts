import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createEmulatorApp } from "./emulator-app.ts";
import type { ScenarioName } from "./model.ts";

/** Serves the emulator app over real HTTP in Node (tests' global setup and `npm run emulator`). */
export type EmulatorOptions = {
  port?: number;
  host?: string;
  seed?: number;
  /** Advance the demo organizations on a timer (see simulation.ts). */
  simulate?: boolean;
  /** Interval of simulation ticks; 20 s unless given. */
  tickMs?: number;
  /** Which script the demo orgs follow: "cycle" (default) or "noisy" (simulation.ts). */
  scenario?: ScenarioName;
  appUrl?: string;
  /** Cap of an injected "hang"; 120 s unless given. */
  hangCapMs?: number;
};
export type RunningServer = { url: string; close: () => Promise<void> };

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const emulator = createEmulatorApp({
    seed: options.seed,
    appUrl: options.appUrl,
    hangCapMs: options.hangCapMs,
    scenario: options.scenario,
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve, reject) => {
      const s = serve(
        { fetch: emulator.app.fetch, port: options.port ?? 0, hostname: host },
        (info: AddressInfo) => resolve({ server: s, port: info.port }),
      );
      s.once("error", reject);
    },
  );
  const timer = options.simulate
    ? setInterval(() => emulator.tickDemo(), options.tickMs ?? 20_000)
    : undefined;
  timer?.unref();
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        emulator.faults.releaseHangs();
        server.close(() => resolve());
        // Keep-alive sockets would otherwise hold close() open.
        if ("closeIdleConnections" in server) server.closeIdleConnections();
        setTimeout(() => {
          if ("closeAllConnections" in server) server.closeAllConnections();
        }, 100).unref();
      });
      return closing;
    },
  };
}
