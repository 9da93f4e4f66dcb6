import type { AuthorizeErrorHandler, SlackEdgeAppEnv } from "slack-edge";
import * as ACTION_IDS from "../messages/action-ids.ts";
import { IMPACT_REPLAY_ACTION_ID } from "../messages/production-impact-blocks.ts";
import type { Deps } from "../wiring.ts";
import { noAck } from "./actions/action-requests.ts";
import { askExampleAction } from "./actions/ask-example.ts";
import { channelPageAction } from "./actions/channel-more.ts";
import { collectionSessionsAction } from "./actions/collection-sessions.ts";
import { sessionClicksAction, sessionScreenshotsAction } from "./actions/session-clicks.ts";
import { sessionTimelineAction } from "./actions/session-detail.ts";
import { sessionShareAction } from "./actions/session-share.ts";
import { sessionsPageAction } from "./actions/sessions-more.ts";
import { triageButtonAction, triageSnoozeAction } from "./actions/triage-buttons.ts";
import { cachedAuthorize } from "./authorize.ts";
import { decipherCommand } from "./commands/decipher-command-handler.ts";
import { withDoctor } from "./commands/doctor-command.ts";
import { sessionsCommand } from "./commands/sessions-command.ts";
import { registerEvents } from "./events/register.ts";
import { registerFallbacks } from "./fallbacks.ts";
import { refuseGuests } from "./guests.ts";
import { registerConnectDecipher } from "./install/connect-decipher.ts";
import { LeanSlackApp } from "./lean-slack-app.ts";
import { refuseOutsiders } from "./outsiders.ts";

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

/**
 * Wiring only: which handler answers which command or control. Built once per isolate (see
 * src/app.ts), so handlers close over the isolate's deps; what is per request reaches them in
 * the request (slack-edge's `req`) and through `inRequest` (src/wiring.ts).
 *
 * The app is handed only requests whose signature, age and size src/handlers/slack-edge.ts
 * has already checked, and dispatches them without checking again (src/handlers/lean-slack-app.ts).
 */
export function createSlackApp(deps: Deps): LeanSlackApp {
  const app = new LeanSlackApp({
    env: {
      SLACK_SIGNING_SECRET: deps.config.slackSigningSecret,
      SLACK_BOT_TOKEN: deps.config.slackBotToken,
      SLACK_LOGGING_LEVEL: "ERROR",
    },
    authorize: cachedAuthorize(deps.slack, deps.config.slackBotToken),
    authorizeErrorHandler,
    slackApiUrl: deps.config.slackApiUrl,
  });

  // Before any listener: a person of another organization (a shared channel) gets no data.
  refuseOutsiders(app, deps);
  // Then a guest of the workspace gets only the alerts of their channels (src/handlers/guests.ts).
  refuseGuests(app, deps);
  const sessions = sessionsCommand(deps);
  app.command("/sessions", sessions.ack, sessions.lazy);
  const decipher = withDoctor(deps, decipherCommand(deps));
  app.command("/decipher", decipher.ack, decipher.lazy);

  const button = (actionId: string) => ({ type: "button" as const, action_id: actionId });
  const buttons = [
    [ACTION_IDS.sessionsMore, sessionsPageAction(deps)],
    [ACTION_IDS.sessionsFirst, sessionsPageAction(deps)],
    [ACTION_IDS.channelMore, channelPageAction(deps)],
    [ACTION_IDS.channelFirst, channelPageAction(deps)],
    [ACTION_IDS.sessionTimeline, sessionTimelineAction(deps)],
    [ACTION_IDS.sessionClicks, sessionClicksAction(deps)],
    [ACTION_IDS.sessionScreenshots, sessionScreenshotsAction(deps)],
    [ACTION_IDS.sessionShare, sessionShareAction(deps)],
    [ACTION_IDS.triageAcknowledge, triageButtonAction("acknowledge")(deps)],
    [ACTION_IDS.triageUnsnooze, triageButtonAction("unsnooze")(deps)],
    [ACTION_IDS.triageMute, triageButtonAction("mute")(deps)],
    [ACTION_IDS.collectionSessions, collectionSessionsAction(deps)],
  ] as const;
  for (const [actionId, listener] of buttons) app.action(button(actionId), listener.ack, listener.lazy);
  // Several Unmute buttons in one row: `triage_unmute`, `triage_unmute:2`, … (src/messages/decipher-replies.ts).
  const unmute = triageButtonAction("unmute")(deps);
  app.action(new RegExp(`^${ACTION_IDS.triageUnmute}(:\\d+)?$`), unmute.ack, unmute.lazy);
  // The help answer's examples: `ask_example:0`, `ask_example:1`, … (src/messages/mention-help.ts).
  const example = askExampleAction(deps);
  app.action(new RegExp(`^${ACTION_IDS.askExample}(:\\d+)?$`), example.ack, example.lazy);
  const snooze = triageSnoozeAction(deps);
  app.action({ type: "static_select", action_id: ACTION_IDS.triageSnooze }, snooze.ack, snooze.lazy);
  // Link buttons still send an interaction; it only needs an ack.
  for (const actionId of [ACTION_IDS.runOpen, ACTION_IDS.sessionReplay, IMPACT_REPLAY_ACTION_ID])
    app.action(actionId, noAck);
  registerEvents(app, deps);
  registerConnectDecipher(app, deps);
  registerFallbacks(app, deps);
  return app;
}
