import type { SlackApp, SlackEdgeAppEnv } from "slack-edge";
import { FIND_SESSIONS_CALLBACK_ID } from "../../messages/find-sessions-modal.ts";
import { FIND_SESSIONS_ACTION_ID } from "../../messages/home-view.ts";
import { UNFURL_LINK_ACTION_ID } from "../../messages/unfurl-blocks.ts";
import { DEFAULT_TEAM } from "../../model/subscription-kind.ts";
import { type EventGate, eventGate, isolateGate } from "../../objects/event-gate-client.ts";
import { describeError } from "../../util/describe-error.ts";
import type { Deps } from "../../wiring.ts";
import { handleAppHomeOpened } from "../home/app-home.ts";
import { findSessions } from "../home/find-sessions.ts";
import type { LeanSlackApp } from "../lean-slack-app.ts";
import { handleAppMention } from "../mentions/app-mention.ts";
import { handleAssistantThreadStarted } from "../mentions/assistant-pane.ts";
import { handleDirectMessage } from "../mentions/direct-message.ts";
import { handleLinkShared } from "../unfurl/link-shared.ts";
import { eventTeam } from "./event-envelope.ts";
import type { EventType } from "./event-types.ts";
import { handlePostLanded } from "./post-landed.ts";

type EventRequest<T extends EventType> = Parameters<Parameters<SlackApp<SlackEdgeAppEnv>["event"]>[1]>[0] & {
  payload: Extract<Parameters<Parameters<SlackApp<SlackEdgeAppEnv>["event"]>[1]>[0]["payload"], { type: T }>;
};

type EventHandler<T extends EventType> = (req: EventRequest<T>, deps: Deps, gate: EventGate) => Promise<void>;

/** One handler per subscribed event type: a type without one does not compile. */
const HANDLERS: { [T in EventType]: EventHandler<T> } = {
  link_shared: (req, deps, gate) => handleLinkShared(req.payload, deps, gate),
  app_home_opened: (req, deps, gate) =>
    handleAppHomeOpened(
      req.payload,
      deps,
      gate,
      req.context.teamId ?? null,
      req.context.authorizeResult.url ?? null,
    ),
  app_mention: (req, deps) =>
    handleAppMention(req.payload, deps, {
      teamId: req.context.teamId || DEFAULT_TEAM,
      teamUrl: req.context.authorizeResult.url ?? null,
    }),
  message: (req, deps) =>
    handleDirectMessage(req.payload, deps, {
      teamId: req.context.teamId || DEFAULT_TEAM,
      teamUrl: req.context.authorizeResult.url ?? null,
    }),
  assistant_thread_started: (req, deps) =>
    handleAssistantThreadStarted(req.payload, deps, {
      teamId: req.context.teamId || DEFAULT_TEAM,
      teamUrl: req.context.authorizeResult.url ?? null,
    }),
  // Answers come from the person's channels, never the one they look at: nothing to change.
  assistant_thread_context_changed: async () => {},
  message_metadata_posted: (req, deps) =>
    handlePostLanded(req.payload, req.body as Record<string, unknown>, eventTeam(req.body) ?? "", deps),
};

/**
 * Handled again at no harm when Slack retries: a post landing settles its key once, and the
 * second time finds it settled. These skip the event gate (one Durable Object request each).
 */
const REPEATABLE: ReadonlySet<EventType> = new Set([
  "message_metadata_posted",
  "assistant_thread_context_changed",
]);

/** Without the Durable Object binding: dedup per isolate only (see objects/event-gate-client.ts). */
const fallbackGate = isolateGate();

/**
 * Each event runs at most once per event_id, whichever isolate Slack's retry lands on: the
 * team's SlackEventGate says "first" exactly once. A handler that throws forgets the id, so a
 * later retry may try again; handlers catch Slack and vendor failures themselves.
 */
function once<T extends EventType>(type: T, deps: Deps) {
  return async (req: EventRequest<T>) => {
    // src/handlers/events/event-envelope.ts let the event through only with both ids.
    const envelope = req.body as { event_id: string };
    const teamId = eventTeam(req.body) ?? "";
    const gate = deps.eventGate ? eventGate(deps.eventGate, teamId, deps.budget) : fallbackGate;
    if (!REPEATABLE.has(type) && !(await gate.firstTime(envelope.event_id))) return;
    try {
      await HANDLERS[type](req, deps, gate);
    } catch (error) {
      await gate.forget(envelope.event_id).catch(() => {});
      // describeError keeps quoted bodies, URLs and keys out of the line.
      console.error(`${type} failed: ${describeError(error)}`);
    }
  };
}

/** Wiring of the Events API, the Home tab's button and its modal (slack-edge's own shape). */
export function registerEvents(app: LeanSlackApp, deps: Deps): void {
  for (const type of Object.keys(HANDLERS) as EventType[]) {
    app.event(type, once(type, deps) as never);
  }
  app.action(
    FIND_SESSIONS_ACTION_ID,
    async () => {},
    (req) => findSessions.open(req.payload.trigger_id, deps),
  );
  // Link buttons in unfurls still send an interaction; it only needs an ack.
  app.action(UNFURL_LINK_ACTION_ID, async () => {});
  app.viewSubmission(
    FIND_SESSIONS_CALLBACK_ID,
    (req) => findSessions.ack(req, deps),
    (req) => findSessions.lazy(req, deps),
  );
}
