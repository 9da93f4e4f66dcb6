import type { Acknowledgement, Muted, Snooze } from "../model/triage-state.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { code, DATE_FORMAT_AHEAD, dateToken, mention, plural } from "./mrkdwn.ts";

/**
 * The triage part of an alert's status line, shared by test and collection alerts: who is
 * looking, who snoozed it until when, who muted it. Every field may be absent on state stored
 * before triage existed, so absent reads as "nobody".
 */
export type TriageState = {
  acknowledgedBy?: readonly Acknowledgement[] | undefined;
  snooze?: Snooze | null | undefined;
  muted?: Muted | null | undefined;
  /** Set when the alert is re-rendered for an Unmute: it says who unmuted it, and when. */
  unmutedBy?: Muted | null | undefined;
};

/**
 * "<@U1> is looking since …", "<@U1> and <@U2> are looking since …": since the first click, so
 * a day later it does not read as if someone were looking right now.
 */
export function lookingLine(acks: readonly Acknowledgement[] | undefined): string {
  const users = [...new Set((acks ?? []).map((a) => a.userId))].map(mention);
  if (users.length === 0) return "";
  const names = users.length === 1 ? users[0] : `${users.slice(0, -1).join(", ")} and ${users.at(-1)}`;
  const first = (acks ?? []).map((a) => a.at).sort()[0];
  return `:eyes: ${names} ${users.length === 1 ? "is" : "are"} looking${first ? ` since ${dateToken(first)}` : ""}`;
}

/**
 * How long a snooze lasts, in words: "until today at 14:00", "until it passes", "until +5 more
 * sessions". The end names its day: read the next morning, "until 14:00" would look ahead.
 */
export function snoozeEnd(snooze: Snooze): string {
  switch (snooze.choice.kind) {
    case "for":
      // A date, not "today": the line stays on the alert after the snooze ends.
      return `until ${dateToken(snooze.until, DATE_FORMAT_AHEAD)}`;
    case "until-pass":
      return "until it passes";
    case "until-growth":
      return `until ${plural(snooze.choice.sessions, "more session")}`;
  }
}

export function snoozeLine(snooze: Snooze | null | undefined, now: Date): string {
  // A timed snooze that has run out is over, even before the engine rewrites the message.
  if (!snooze || !isSnoozed({ snooze }, now)) return "";
  const missed =
    snooze.missedFailures > 0 ? ` · ${plural(snooze.missedFailures, "failure")} while snoozed` : "";
  return `:sleeping: snoozed by ${mention(snooze.by)} ${snoozeEnd(snooze)}${missed}`;
}

/** `resubscribe`: the command that also undoes the mute, e.g. `/decipher subscribe test 101`. */
export function mutedLine(muted: Muted | null | undefined, resubscribe: string): string {
  return muted
    ? `:no_bell: muted by ${mention(muted.by)} ${dateToken(muted.at)}: nothing is posted for it until someone clicks *Unmute* (here, in \`/decipher status\` or the app's Home) or types ${code(resubscribe)}`
    : "";
}

/** A test's failures while muted were counted, not posted. */
const COUNTED_WHILE_MUTED = "what happened while it was muted was counted, not posted";

/**
 * After Unmute: alerts are posted again from then. A test's failures while muted were counted,
 * not posted; a collection was not polled while muted, so its growth is counted from the
 * unmute (src/engine/apply-triage.ts), and its next reply starts from that count.
 */
export function unmutedLine(
  unmutedBy: Muted | null | undefined,
  meanwhile: string = COUNTED_WHILE_MUTED,
): string {
  return unmutedBy
    ? `:bell: unmuted by ${mention(unmutedBy.by)} ${dateToken(unmutedBy.at)}: alerts are posted again from then (${meanwhile})`
    : "";
}

export function triageLines(
  state: TriageState,
  now: Date,
  resubscribe: string,
  /** What became of the item while it was muted: a test's failures were counted (the default). */
  mutedMeanwhile: string = COUNTED_WHILE_MUTED,
): string[] {
  return [
    unmutedLine(state.unmutedBy, mutedMeanwhile),
    state.unmutedBy ? "" : mutedLine(state.muted, resubscribe),
    snoozeLine(state.snooze, now),
    lookingLine(state.acknowledgedBy),
  ].filter(Boolean);
}
