// Not from slack-edge's index, which bundles all of slack-edge (src/handlers/lean-slack-app.ts).
import { toCompleteResponse } from "slack-edge/dist/response/response.js";
import { ResponseUrlSender } from "slack-web-api-client/dist/client/webhook-client.js";
import { errorMessage } from "../messages/help.ts";
import { reply } from "../slack-api/respond.ts";
import { isRecord } from "../util/checks.ts";
import { NO_HANDLER_NOTE, unknownCommandAnswer } from "./fallbacks.ts";

const isString = (v: unknown): v is string => typeof v === "string";

/** What to do with a signed form body: answer it here, or hand it, parsed, to the Slack app. */
export type FormRoute =
  | { dispatch: Record<string, unknown> }
  | { answer: Response; later?: () => Promise<unknown> };

const empty = (): FormRoute => ({ answer: new Response(null, { status: 200 }) });
const noOptions = (): FormRoute => ({ answer: Response.json({ options: [] }) });

/**
 * Whether the Slack app has a listener for this payload: the types it dispatches, in the
 * shapes its matchers read (src/handlers/fallbacks.ts catches every such payload no real
 * listener takes). Any other shape would find no listener.
 */
function appTakes(payload: Record<string, unknown>): boolean {
  switch (payload.type) {
    case "block_actions": {
      const first = Array.isArray(payload.actions) ? payload.actions[0] : undefined;
      return isRecord(first) && isString(first.action_id) && isString(first.type);
    }
    case "block_suggestion":
      return isString(payload.action_id) && payload.action_id !== "";
    case "view_submission":
    case "view_closed":
      return isRecord(payload.view) && isString(payload.view.callback_id);
    case "shortcut":
    case "message_action":
      return isString(payload.callback_id) && payload.callback_id !== "";
    default:
      return false;
  }
}

function responseUrlOf(payload: Record<string, unknown>): string | null {
  const url = payload.response_url;
  return isString(url) && /^https?:\/\//.test(url) ? url : null;
}

/**
 * Interaction payloads the Slack app has no listener type for (legacy `interactive_message`
 * buttons, the old dialogs, workflow step edits, …) or in a shape it cannot read. Every one
 * gets a 2xx inside Slack's 3 s: a dialog's option request an empty list, a cancelled dialog
 * nothing, anything else an empty ack and, where Slack gave a `response_url`, a short note to
 * the person after it. Never logged: the payload may hold what someone typed.
 */
function answerUnhandled(payload: Record<string, unknown>): FormRoute {
  if (payload.type === "dialog_suggestion" || payload.type === "block_suggestion") return noOptions();
  const url = responseUrlOf(payload);
  if (payload.type === "dialog_cancellation" || payload.type === "view_closed" || !url) return empty();
  return {
    answer: new Response(null, { status: 200 }),
    later: () => reply((params) => new ResponseUrlSender(url).call(params), errorMessage(NO_HANDLER_NOTE)),
  };
}

/**
 * Runs after the signature check (src/handlers/slack-edge.ts) on a form body: a slash command
 * or an interaction payload goes on, parsed, to the Slack app when it has a listener for it; a
 * command without a slash name gets the help; Slack's signed certificate check, and any other
 * signed form that is neither, gets an empty 200 (Slack sends no such thing, and a 2xx shows
 * no one an error); only a `payload` that is no JSON object gets 400.
 */
export function routeForm(form: Record<string, string>): FormRoute {
  const raw = form.payload;
  if (raw === undefined) {
    // Like slack-edge, the Slack app reads a form with a `type` field as no command at all.
    if (form.command !== undefined && form.type === undefined) {
      if (form.command.startsWith("/")) return { dispatch: form };
      // A command request without a slash name (java-slack-sdk's logged sample, blanked, has
      // `command=`): the Slack app would find no listener for it, and Slack shows the person
      // an error for anything but a 2xx, so it gets the unknown command's answer here.
      return { answer: toCompleteResponse(unknownCommandAnswer()) };
    }
    return empty();
  }
  let payload: unknown;
  try {
    payload = JSON.parse(raw);
  } catch {
    payload = null;
  }
  if (!isRecord(payload)) return { answer: new Response("malformed payload", { status: 400 }) };
  return appTakes(payload) ? { dispatch: payload } : answerUnhandled(payload);
}
