import { Hono } from "hono";
import { createCursorCodec } from "./cursor.ts";
import { ApiError, methodNotAllowed } from "./errors.ts";
import { createFaultRegistry, type FaultRegistry } from "./faults.ts";
import type { ScenarioName } from "./model.ts";
import { openApiDocument } from "./openapi.ts";
import { apiRoutes } from "./routes/api.ts";
import { appPageRoutes } from "./routes/app-pages.ts";
import { controlRoutes } from "./routes/control.ts";
import { screenshotRoutes } from "./routes/screenshots.ts";
import { startScenario, type TickChange, tick } from "./simulation.ts";
import { createStore, type Store } from "./store.ts";

/**
 * The emulator as a plain Hono app: no Node APIs, so it runs under @hono/node-server
 * (server.ts) or in workerd alike.
 */
export type EmulatorAppOptions = {
  seed?: number;
  /** Web-app base used in `url` fields. */
  appUrl?: string;
  /** Clock, injectable for tests of the app itself. */
  now?: () => number;
  /** How long an injected "hang" holds a request at most. */
  hangCapMs?: number;
  /** The demo orgs' simulation script (simulation.ts); "cycle" unless given. */
  scenario?: ScenarioName;
};

export type EmulatorApp = {
  app: Hono;
  store: Store;
  faults: FaultRegistry;
  /** One simulation step on the demo organizations. */
  tickDemo(): Record<string, TickChange[]>;
};

export function createEmulatorApp(options: EmulatorAppOptions = {}): EmulatorApp {
  const now = options.now ?? Date.now;
  const appUrl = (options.appUrl ?? "https://app.getdecipher.com").replace(/\/+$/, "");
  const store = createStore(options.seed ?? 1, now);
  const faults = createFaultRegistry();
  const cursors = createCursorCodec();
  const hangCapMs = options.hangCapMs ?? 120_000;
  if (options.scenario && options.scenario !== "cycle")
    for (const org of store.demoOrgs()) startScenario(org, options.scenario, now());

  const app = new Hono();
  app.route("/api/v1", apiRoutes({ store, faults, cursors, appUrl, now, hangCapMs }));
  app.all("/api/*", (c) => {
    if (c.req.method !== "GET") throw methodNotAllowed(c.req.method);
    throw new ApiError(404, "not_found_error", "not_found", `No such endpoint: ${c.req.path}`);
  });
  app.route("/__emulator", controlRoutes({ store, faults, appUrl, now }));
  // The images behind the API's screenshot URLs.
  app.route("/", screenshotRoutes({ store, now }));
  // The web app's pages, so links in the sandbox lead somewhere (DECIPHER_APP_URL = this host).
  app.route("/", appPageRoutes(store));
  app.get("/openapi.json", (c) => c.json(openApiDocument(c.req.url)));
  app.get("/", (c) =>
    c.json({
      name: "Decipher read API emulator",
      openapi: "/openapi.json",
      demoKeys: ["dcp_demo_acme", "dcp_demo_globex"],
    }),
  );
  app.notFound(() => new ApiError(404, "not_found_error", "not_found", "Not found").toResponse());
  app.onError((err) => {
    if (err instanceof ApiError) return err.toResponse();
    return new ApiError(500, "api_error", "internal_error", `Internal error: ${err.message}`).toResponse();
  });

  return {
    app,
    store,
    faults,
    tickDemo() {
      const at = now();
      return Object.fromEntries(store.demoOrgs().map((org) => [org.apiKey, tick(org, at)]));
    },
  };
}
