import type { Context } from "hono";
// Hono's smallest preset (its PatternRouter): four routes need no RegExp/Trie router pair,
// and the bundle is ≈ 2.5 KB gzip smaller.
import { Hono } from "hono/tiny";
// A named import: the bundle keeps this one field, not the whole package.json.
import { version } from "../package.json";
import { type Config, ConfigError, type Env, readConfig } from "./config.ts";
import { healthDeep } from "./handlers/doctor/health-deep.ts";
import { healthProblems, readHealthState } from "./handlers/health-state.ts";
import { INSTALL_PATH, OAUTH_REDIRECT_PATH } from "./handlers/install/install-pages.ts";
import { installRoutes } from "./handlers/install/oauth-routes.ts";
import { tenants } from "./handlers/install/tenants.ts";
import { signingKey } from "./handlers/signed-request.ts";
import { createSlackApp, SLACK_EVENTS_PATH } from "./handlers/slack-app.ts";
import { createSlackEdge, type SlackEdge } from "./handlers/slack-edge.ts";
import { clockFigures } from "./messages/clock-pace.ts";
import { describeError } from "./util/describe-error.ts";
import { createDeps } from "./wiring.ts";

export type AppEnv = { Bindings: Env };

const VERSION: string = version;

export const app = new Hono<AppEnv>();

/**
 * Liveness for an uptime monitor: the age of the last successful poll and the number of
 * failing subscriptions, added up over the registry's shards by its directory. Never echoes configuration values.
 */
app.get("/health", async (c) => {
  let config: Config;
  try {
    config = readConfig(c.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return c.json({ ok: false, version: VERSION, problems: error.problems });
  }
  const state = await readHealthState(c.env, config.plan);
  if (!state)
    return c.json({ ok: false, version: VERSION, problems: ["the engine's registry did not answer"] });
  const { health, governed, watchdogAgeSeconds, lastSuccessfulPollAgeSeconds } = state;
  const problems = healthProblems(state);
  return c.json({
    ok: problems.length === 0,
    version: VERSION,
    lastPollAt: health.lastCycleAt,
    watchdogAgeSeconds,
    lastSuccessfulPollAt: health.lastSuccessAt,
    lastSuccessfulPollAgeSeconds,
    subscriptions: health.subscriptions,
    failingSubscriptions: health.erroring + health.paused,
    pausedSubscriptions: health.paused,
    // Said, not a problem: a channel an admin closed to the bot stays so by choice. Where and
    // why are for the workspace's own eyes, in Slack, not on this public page.
    ...(health.paused > 0
      ? {
          paused: `${health.paused} subscription(s) paused: Slack refuses posts in a channel (tried again once an hour), or an item is gone at Decipher. /decipher status in any channel says where, why and when it is tried again.`,
        }
      : {}),
    overdue: health.overdue,
    clock: clockFigures(governed),
    ...(problems.length > 0 ? { problems } : {}),
  });
});

/**
 * `npm run doctor` (tools/doctor.ts): the deployment checked as Slack and Decipher see it, one
 * line each. Signed like Slack's requests, so nobody else can make the Worker call them.
 */
app.get("/health/deep", (c) => healthDeep(c.req.raw, c.env));

/**
 * The Slack side of the Worker, built on an isolate's first Slack request and kept for the
 * next ones: the checked configuration, the deps (clients, stores, objects), the `SlackApp`
 * and the HMAC key depend on the bindings alone, and workerd hands every request of an
 * isolate the same `env` object. A configuration problem is not kept: the next request reads
 * the configuration again, and /health names the problem.
 */
const edges = new WeakMap<Env, SlackEdge>();

function slackEdge(env: Env): SlackEdge {
  let edge = edges.get(env);
  if (!edge) {
    const config = readConfig(env);
    const key = signingKey(config.slackSigningSecret);
    // Multi-workspace mode: each request goes to its own team's app (src/handlers/install/tenants.ts).
    edge = config.install
      ? createSlackEdge(
          null,
          key,
          tenants(config, env, (team, e, credentials) =>
            createSlackApp(createDeps(team, e, { tenant: credentials })),
          ),
        )
      : createSlackEdge(createSlackApp(createDeps(config, env)), key);
    edges.set(env, edge);
  }
  return edge;
}

app.post(SLACK_EVENTS_PATH, (c) => slackEdge(c.env).handle(c.req.raw, c.executionCtx));

/** Add to Slack (multi-workspace mode): the button page and Slack's redirect back. */
const installs = new WeakMap<Env, ReturnType<typeof installRoutes>>();
const install = (c: Context<AppEnv>) => {
  let routes = installs.get(c.env);
  if (!routes) {
    routes = installRoutes(readConfig(c.env), c.env);
    installs.set(c.env, routes);
  }
  return routes.handle(c.req.raw);
};
app.get(INSTALL_PATH, install);
app.get(OAUTH_REDIRECT_PATH, install);

app.notFound((c) => c.json({ ok: false, error: "not found" }, 404));

app.onError((error, c) => {
  // describeError keeps out what a message may quote from vendor or Slack bodies.
  console.error(`unhandled on ${c.req.method} ${new URL(c.req.url).pathname}: ${describeError(error)}`);
  if (error instanceof ConfigError) return c.json({ ok: false, error: error.message }, 500);
  return c.json({ ok: false, error: "internal error" }, 500);
});
