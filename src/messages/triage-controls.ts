import type { Button, StaticSelect } from "slack-edge";
import type { SubscriptionRef } from "../model/alert-control.ts";
import { factsOfKind } from "../model/kind-facts.ts";
import type { SnoozeChoice } from "../model/triage-state.ts";
import * as ACTION_IDS from "./action-ids.ts";
import { button, confirmDialog, staticSelect } from "./elements.ts";
import { truncatePlain } from "./limits.ts";
import { plainLine, plural } from "./mrkdwn.ts";
import { encodeSnoozeValue, encodeTriageRef, SNOOZE_HOURS } from "./triage-values.ts";

export type TriageControlsInput = {
  /** The subscription the alert belongs to; null (old callers) → no triage controls. */
  ref: SubscriptionRef | null;
  /** Collections: the growth "until +N more sessions" offers (the subscription's threshold). */
  growthStep?: number | null;
  /** A snoozed alert offers "Unsnooze" in place of the snooze menu. */
  snoozed?: boolean;
  /** A muted alert offers only Unmute. */
  muted?: boolean;
  /** The test's or collection's name, as the alert shows it: the Mute dialog names it. */
  name?: string;
};

/** Names in a confirm dialog: its title holds 100 characters, its text 300 (Slack's confirm object). */
const DIALOG_NAME_CHARS = 60;

/** What the subscription is called in a confirm dialog: "“Checkout flow” (test 101)", or "test 101". */
function refName(ref: SubscriptionRef, name: string | undefined): string {
  const shown = plainLine(name);
  if (!shown) return `${ref.kind} ${ref.id}`;
  return `“${truncatePlain(shown, DIALOG_NAME_CHARS)}” (${ref.kind} ${ref.id})`;
}

/** `/decipher subscribe test 101`: the command that undoes a mute. */
export const resubscribeCommand = (ref: { kind: string; id: number }) =>
  `/decipher subscribe ${ref.kind} ${ref.id}`;

function snoozeOptions(ref: SubscriptionRef, growthStep: number | null | undefined) {
  const choices: { text: string; choice: SnoozeChoice }[] = SNOOZE_HOURS.map((hours) => ({
    text: `for ${hours} h`,
    choice: { kind: "for", hours },
  }));
  if (factsOfKind(ref.kind).untilSnooze === "until-pass")
    choices.push({ text: "until it passes", choice: { kind: "until-pass" } });
  else {
    const sessions = growthStep && growthStep > 0 ? growthStep : 5;
    choices.push({
      text: `until +${plural(sessions, "more session")}`,
      choice: { kind: "until-growth", sessions },
    });
  }
  return choices.map(({ text, choice }) => ({ text, value: encodeSnoozeValue(ref, choice) }));
}

/**
 * Acknowledge (open to everyone), a Snooze menu and Mute (behind a confirm dialog). Every
 * value names the subscription, so the click reaches the right single writer.
 */
export function triageControls(input: TriageControlsInput): (Button | StaticSelect | null)[] {
  const { ref } = input;
  if (!ref) return [];
  if (input.muted) return [unmuteButton(ref)];
  const value = encodeTriageRef(ref);
  if (!value) return [];
  return [
    button({ text: ":eyes: Acknowledge", actionId: ACTION_IDS.triageAcknowledge, value }),
    input.snoozed
      ? unsnoozeButton(ref)
      : staticSelect({
          actionId: ACTION_IDS.triageSnooze,
          placeholder: ":sleeping: Snooze…",
          options: snoozeOptions(ref, input.growthStep),
        }),
    button({
      text: ":no_bell: Mute",
      actionId: ACTION_IDS.triageMute,
      value,
      confirm: confirmDialog({
        title: `Mute ${refName(ref, input.name)}?`,
        text: `This channel gets no more alerts for ${refName(ref, input.name)} until someone clicks Unmute (on this alert, in /decipher status or the app's Home) or types ${resubscribeCommand(ref)}.`,
        confirm: "Mute",
      }),
    }),
  ];
}

/** **Unsnooze**: the snooze ends now, and the next failure alerts again. */
export function unsnoozeButton(ref: SubscriptionRef): Button | null {
  const value = encodeTriageRef(ref);
  return value
    ? button({ text: ":alarm_clock: Unsnooze", actionId: ACTION_IDS.triageUnsnooze, value })
    : null;
}

/** **Unmute**: alerts are posted again from now (nothing that happened while muted is replayed). */
export function unmuteButton(ref: SubscriptionRef, text = ":bell: Unmute"): Button | null {
  const value = encodeTriageRef(ref);
  return value ? button({ text, actionId: ACTION_IDS.triageUnmute, value }) : null;
}
