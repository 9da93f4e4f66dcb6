import { plain } from "../../messages/decipher-replies.ts";
import { errorMessage } from "../../messages/help.ts";
import { decodeSnoozeValue, decodeTriageRef } from "../../messages/triage-values.ts";
import { triageRefusal } from "../../model/admins.ts";
import type { SubscriptionRef } from "../../model/alert-control.ts";
import type { TriageAction, TriageOutcome } from "../../model/triage-state.ts";
import { reply } from "../../slack-api/respond.ts";
import { describeError } from "../../util/describe-error.ts";
import type { Deps } from "../../wiring.ts";
import {
  type ButtonRequest,
  clickedValue,
  type Listener,
  noAck,
  type SelectRequest,
  selectedValue,
} from "./action-requests.ts";

type Request = ButtonRequest | SelectRequest;
type ButtonTriage = "acknowledge" | "unsnooze" | "mute";

const TAMPERED = "That control no longer works, so nothing changed. Use the buttons on the alert itself.";

/** A value naming another workspace or channel than the click came from is not this alert's. */
function belongsHere(ref: SubscriptionRef, req: Request): boolean {
  return ref.teamId === req.context.teamId && ref.channelId === req.context.channelId;
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
}

/** **Acknowledge**, **Unsnooze**, **Mute** (Mute is behind Slack's confirm dialog). */
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
