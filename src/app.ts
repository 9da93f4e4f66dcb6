import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ConfigError, type Env, readConfig } from "./env.ts";
import { createSlackApp, SLACK_EVENTS_PATH } from "./slack/app.ts";
import { createDeps } from "./slack/deps.ts";
import { slackEventGuard } from "./slack/events/event-guard.ts";
import { MAX_BODY_BYTES, slackBodyGuard, slackRequestGuard } from "./slack/request-guard.ts";
import { VERSION } from "./version.ts";

export type AppEnv = { Bindings: Env };

export const app = new Hono<AppEnv>();

app.get("/health", (c) => {
  try {
    readConfig(c.env);
    return c.json({ ok: true, version: VERSION });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return c.json({ ok: false, version: VERSION, problems: error.problems });
  }
});

app.post(
  SLACK_EVENTS_PATH,
  slackRequestGuard(),
  bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.text("request too large", 413) }),
  slackBodyGuard(),
  slackEventGuard(),
  (c) => {
    const deps = createDeps(readConfig(c.env), c.env.STATE, {
      interactive: true,
      eventGate: c.env.SLACK_EVENT_GATE,
    });
    return createSlackApp(deps).run(c.req.raw, c.executionCtx);
  },
);

app.notFound((c) => c.json({ ok: false, error: "not found" }, 404));

app.onError((error, c) => {
  // Only the error's class reaches the log: messages may quote vendor or Slack bodies.
  console.error(`unhandled ${error.name} on ${c.req.method} ${new URL(c.req.url).pathname}`);
  if (error instanceof ConfigError) return c.json({ ok: false, error: error.message }, 500);
  return c.json({ ok: false, error: "internal error" }, 500);
});
