import { plain } from "../../messages/decipher-replies.ts";
import { errorMessage } from "../../messages/help.ts";
import { decodeSnoozeValue, decodeTriageRef } from "../../messages/triage-values.ts";
import { triageRefusal } from "../../model/admins.ts";
import type { SubscriptionRef } from "../../model/alert-control.ts";
import type { TriageAction, TriageOutcome } from "../../model/triage-state.ts";
import { reply } from "../../slack-api/respond.ts";
import { channelsOfUser } from "../../slack-api/user-channels.ts";
import { describeError } from "../../util/describe-error.ts";
import type { Deps } from "../../wiring.ts";
import { refreshHome } from "../home/app-home.ts";
import {
  type ButtonRequest,
  clickedValue,
  type Listener,
  noAck,
  type SelectRequest,
  selectedValue,
} from "./action-requests.ts";

type Request = ButtonRequest | SelectRequest;
type ButtonTriage = "acknowledge" | "unsnooze" | "mute" | "unmute";

const TAMPERED = "That control no longer works, so nothing changed. Use the buttons on the alert itself.";

/** The click came from the app's Home tab, which lists every channel's subscriptions. */
export function fromHome(req: { payload: object }): boolean {
  const payload = req.payload as { container?: { type?: string }; view?: { type?: string } };
  return payload.container?.type === "view" && payload.view?.type === "home";
}

/**
 * A value naming another workspace, or another channel than the click came from, is not this
 * control's. The Home tab has no channel: there the workspace must match.
 */
function belongsHere(ref: SubscriptionRef, req: Request): boolean {
  if (ref.teamId !== req.context.teamId) return false;
  return fromHome(req) || ref.channelId === req.context.channelId;
}

const NOT_IN_CHANNEL =
  "You are not in the channel of that alert, so it cannot be changed from your Home tab. Nothing changed.";

/**
 * A Home control names its channel in its value, which a person could copy or tamper with: it
 * acts only for a member of that channel, as Slack says now, or for a bot admin. Slack not
 * answering counts as no.
 */
async function memberOf(deps: Deps, userId: string, channelId: string): Promise<boolean> {
  if (deps.config.adminUserIds.has(userId)) return true;
  const mine = await channelsOfUser(deps.slack, userId);
  return mine.ok && mine.channels.has(channelId);
}

/** Runs one triage action and answers the clicker alone; never changes anything on a bad value. */
async function triage(
  deps: Deps,
  req: Request,
  ref: SubscriptionRef | null,
  action: TriageAction | null,
): Promise<void> {
  const respond = req.context.respond;
  if (!ref || !action || !belongsHere(ref, req)) {
    await reply(respond, errorMessage(TAMPERED));
    return;
  }
  if (fromHome(req) && !(await memberOf(deps, req.payload.user.id, ref.channelId))) {
    await reply(respond, errorMessage(NOT_IN_CHANNEL));
    return;
  }
  // Checked before the trip to the object, which checks again.
  const refusal = triageRefusal(deps.config.adminUserIds, action);
  if (refusal) {
    await reply(respond, errorMessage(refusal));
    return;
  }
  let outcome: TriageOutcome;
  try {
    outcome = await deps.control.triage(ref, action, deps.now());
  } catch (error) {
    console.error(`triage ${action.type} failed: ${describeError(error)}`);
    await reply(
      respond,
      errorMessage("Could not reach this alert's state right now; nothing changed. Try again in a minute."),
    );
    return;
  }
  await reply(respond, outcome.ok ? plain(outcome.note) : errorMessage(outcome.note));
  // The Home tab has no response_url: it shows the change by being published again.
  if (fromHome(req))
    await refreshHome(deps, req.payload.user.id, req.context.teamId, req.context.authorizeResult.url ?? null);
}

/** **Acknowledge**, **Unsnooze**, **Mute** (behind Slack's confirm dialog) and **Unmute**. */
export function triageButtonAction(type: ButtonTriage) {
  return (deps: Deps): Listener<ButtonRequest> => ({
    ack: noAck,
    lazy: async (req) => {
      const ref = decodeTriageRef(clickedValue(req));
      await triage(deps, req, ref, { type, userId: req.payload.user.id });
    },
  });
}

/** The **Snooze** menu: each option carries the subscription and how long. */
export const triageSnoozeAction = (deps: Deps): Listener<SelectRequest> => ({
  ack: noAck,
  lazy: async (req) => {
    const picked = decodeSnoozeValue(selectedValue(req));
    await triage(
      deps,
      req,
      picked?.ref ?? null,
      picked ? { type: "snooze", userId: req.payload.user.id, choice: picked.choice } : null,
    );
  },
});
