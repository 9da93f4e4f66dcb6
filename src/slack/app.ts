import { type AuthorizeErrorHandler, SlackApp, type SlackEdgeAppEnv } from "slack-edge";
import type { Deps } from "../deps.ts";
import { sessionClicksAction } from "./actions/session-clicks.ts";
import { sessionShareAction } from "./actions/session-share.ts";
import { sessionTimelineAction } from "./actions/session-timeline.ts";
import { sessionsMoreAction } from "./actions/sessions-more.ts";
import type { ButtonHandler } from "./actions/types.ts";
import { cachedAuthorize } from "./authorize.ts";
import { ACTION_IDS } from "./blocks/action-ids.ts";
import { decipherCommand } from "./commands/decipher-command-handler.ts";
import { sessionsCommand } from "./commands/sessions-command.ts";
import { registerEvents } from "./events/register.ts";

export const SLACK_EVENTS_PATH = "/slack/events";

/** A rejected bot token still gets the person a sentence, not a silent 401. */
const authorizeErrorHandler: AuthorizeErrorHandler<SlackEdgeAppEnv> = async ({ request }) => {
  const isCommand = typeof request.body.command === "string";
  console.error("Slack rejected the bot token (auth.test failed)");
  return new Response(
    isCommand
      ? JSON.stringify({
          response_type: "ephemeral",
          text: "Slack rejected this bot's token, so it cannot answer. An admin needs to update SLACK_BOT_TOKEN.",
        })
      : "",
    { status: 200, headers: { "content-type": "application/json" } },
  );
};

/** Wiring only: which handler answers which command or button. */
export function createSlackApp(deps: Deps): SlackApp<SlackEdgeAppEnv> {
  const app = new SlackApp<SlackEdgeAppEnv>({
    env: {
      SLACK_SIGNING_SECRET: deps.config.slackSigningSecret,
      SLACK_BOT_TOKEN: deps.config.slackBotToken,
      SLACK_LOGGING_LEVEL: "ERROR",
    },
    authorize: cachedAuthorize(deps.slack, deps.config.slackBotToken),
    authorizeErrorHandler,
    routes: { events: SLACK_EVENTS_PATH },
    // The ack is computed before any lazy work starts, so Slack's 3 s clock never waits on it.
    startLazyListenerAfterAck: true,
  });

  app.command(
    "/sessions",
    (req) => sessionsCommand.ack(req, deps),
    (req) => sessionsCommand.lazy(req, deps),
  );
  app.command(
    "/decipher",
    (req) => decipherCommand.ack(req, deps),
    (req) => decipherCommand.lazy(req, deps),
  );

  const buttons: [string, ButtonHandler][] = [
    [ACTION_IDS.sessionsMore, sessionsMoreAction],
    [ACTION_IDS.sessionTimeline, sessionTimelineAction],
    [ACTION_IDS.sessionClicks, sessionClicksAction],
    [ACTION_IDS.sessionShare, sessionShareAction],
  ];
  for (const [actionId, handler] of buttons) {
    app.action(
      actionId,
      (req) => handler.ack(req as never, deps),
      (req) => handler.lazy(req as never, deps),
    );
  }
  // Link buttons still send an interaction; it only needs an ack.
  app.action(ACTION_IDS.runOpen, async () => {});
  registerEvents(app, deps);
  return app;
}
