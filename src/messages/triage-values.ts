import type { SubscriptionRef } from "../model/alert-control.ts";
import { factsOfKind } from "../model/kind-facts.ts";
import { isSubscriptionKind } from "../model/subscription-kind.ts";
import type { SnoozeChoice } from "../model/triage-state.ts";

/**
 * Values of the triage controls on an alert. Slack echoes them back on a click, so they are
 * read as untrusted input: anything this bot did not write decodes to null, and the handler
 * then answers with a sentence and changes nothing. Compact `|`-separated text keeps them far
 * below the 150 characters Slack allows for a select option's value.
 */

const VERSION = "1";
const SLACK_ID = /^[A-Z0-9]{2,32}$/;
const POSITIVE_ID = /^[1-9]\d{0,15}$/;
/** Timed snoozes this bot offers; any other number in a value is a tampered one. */
export const SNOOZE_HOURS = [1, 4, 24] as const;
const MAX_GROWTH = 100_000;

export function encodeTriageRef(ref: SubscriptionRef): string | null {
  if (!SLACK_ID.test(ref.teamId) || !SLACK_ID.test(ref.channelId)) return null;
  if (!Number.isSafeInteger(ref.id) || ref.id < 1) return null;
  return [VERSION, ref.teamId, ref.channelId, ref.kind, String(ref.id)].join("|");
}

function readRef(parts: string[]): SubscriptionRef | null {
  const [version, teamId, channelId, kind, id] = parts;
  if (version !== VERSION || !teamId || !channelId || !id) return null;
  if (!SLACK_ID.test(teamId) || !SLACK_ID.test(channelId) || !POSITIVE_ID.test(id)) return null;
  if (!isSubscriptionKind(kind)) return null;
  // Every id `encodeTriageRef` writes reads back, and nothing beyond what a number holds exactly.
  if (!Number.isSafeInteger(Number(id))) return null;
  return { teamId, channelId, kind, id: Number(id) };
}

export function decodeTriageRef(value: unknown): SubscriptionRef | null {
  if (typeof value !== "string" || value.length > 150) return null;
  const parts = value.split("|");
  return parts.length === 5 ? readRef(parts) : null;
}

function choiceText(choice: SnoozeChoice): string {
  switch (choice.kind) {
    case "for":
      return `for:${choice.hours}`;
    case "until-pass":
      return "until-pass";
    case "until-growth":
      return `until-growth:${choice.sessions}`;
  }
}

/** A snooze option: the subscription and the chosen length, or null for a choice not offered. */
export function encodeSnoozeValue(ref: SubscriptionRef, choice: SnoozeChoice): string | null {
  const base = encodeTriageRef(ref);
  return base && isOffered(ref, choice) ? `${base}|${choiceText(choice)}` : null;
}

function isOffered(ref: SubscriptionRef, choice: SnoozeChoice): boolean {
  switch (choice.kind) {
    case "for":
      return (SNOOZE_HOURS as readonly number[]).includes(choice.hours);
    case "until-pass":
      return factsOfKind(ref.kind).untilSnooze === choice.kind;
    case "until-growth":
      return (
        factsOfKind(ref.kind).untilSnooze === choice.kind &&
        Number.isSafeInteger(choice.sessions) &&
        choice.sessions >= 1 &&
        choice.sessions <= MAX_GROWTH
      );
  }
}

function readChoice(text: string | undefined): SnoozeChoice | null {
  if (text === "until-pass") return { kind: "until-pass" };
  const timed = /^for:(\d{1,3})$/.exec(text ?? "");
  if (timed) return { kind: "for", hours: Number(timed[1]) };
  const growth = /^until-growth:([1-9]\d{0,5})$/.exec(text ?? "");
  if (growth) return { kind: "until-growth", sessions: Number(growth[1]) };
  return null;
}

export function decodeSnoozeValue(value: unknown): { ref: SubscriptionRef; choice: SnoozeChoice } | null {
  if (typeof value !== "string" || value.length > 150) return null;
  const parts = value.split("|");
  if (parts.length !== 6) return null;
  const ref = readRef(parts.slice(0, 5));
  const choice = readChoice(parts[5]);
  return ref && choice && isOffered(ref, choice) ? { ref, choice } : null;
}
