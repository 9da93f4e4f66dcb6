import type { Subscription } from "../model/subscription.ts";
import type { Acknowledgement, Snooze, TriageAction, TriageOutcome } from "../model/triage-state.ts";
import { update } from "../slack-api/post-message.ts";
import { openParent } from "./alert-parents.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { richBlockGate } from "./rich-block-gate.ts";

export type TriageResult = { next: Subscription | null; outcome: TriageOutcome; mute: boolean };

const MAX_ACKS = 10;
const MAX_SNOOZE_HOURS = 24 * 7;

const isAdminOnly = (action: TriageAction) =>
  action.type === "snooze" || action.type === "mute" || action.type === "unsnooze";

function snoozeUntil(action: Extract<TriageAction, { type: "snooze" }>, now: Date): string | null {
  return action.choice.kind === "for"
    ? new Date(now.getTime() + action.choice.hours * 3_600_000).toISOString()
    : null;
}

/**
 * What a triage button does to a subscription's state. Runs inside the subscription's object,
 * one at a time with its polls, so a click and a poll never overwrite each other. Clicking
 * twice, or two people at once, is harmless: each action is idempotent on the state.
 */
export async function applyTriage(
  sub: Subscription,
  action: TriageAction,
  deps: EngineDeps,
  now: Date,
): Promise<TriageResult> {
  const result = decideTriage(sub, action, deps, now);
  // The open alert shows the change: who is looking, the snooze, or who muted it and how to undo.
  const shown = result.mute ? sub : result.next;
  const mutedBy = result.mute ? { userId: action.userId, at: now.toISOString() } : null;
  const parent = shown ? openParent(shown, deps.config.decipherAppUrl, now, mutedBy) : null;
  if (parent && deps.budget.has(1))
    await update(deps.slack, sub.channelId, parent.ts, parent.message, richBlockGate(deps, sub.teamId));
  return result;
}

function decideTriage(sub: Subscription, action: TriageAction, deps: EngineDeps, now: Date): TriageResult {
  const at = now.toISOString();
  const admins = deps.config.adminUserIds;
  if (isAdminOnly(action) && admins.size > 0 && !admins.has(action.userId)) {
    return {
      next: null,
      mute: false,
      outcome: {
        ok: false,
        reason: "invalid",
        note: "Only the bot's admins can snooze or mute alerts here. Acknowledge is open to everyone.",
      },
    };
  }
  switch (action.type) {
    case "acknowledge": {
      const acks = sub.acknowledgedBy ?? [];
      if (acks.some((a) => a.userId === action.userId)) {
        return {
          next: null,
          mute: false,
          outcome: { ok: true, note: "You had already acknowledged this alert." },
        };
      }
      const ack: Acknowledgement = { userId: action.userId, at };
      return {
        next: { ...sub, acknowledgedBy: [...acks, ack].slice(-MAX_ACKS), lastChangeAt: at },
        mute: false,
        outcome: { ok: true, note: "Acknowledged: the alert now shows you are looking." },
      };
    }
    case "snooze": {
      const { choice } = action;
      if (choice.kind === "for" && !(choice.hours > 0 && choice.hours <= MAX_SNOOZE_HOURS)) {
        return {
          next: null,
          mute: false,
          outcome: { ok: false, reason: "invalid", note: "That snooze length is not one the bot offers." },
        };
      }
      if (choice.kind === "until-pass" && sub.kind !== "test") {
        return {
          next: null,
          mute: false,
          outcome: {
            ok: false,
            reason: "invalid",
            note: "“Until it passes” is for tests; collections snooze until more sessions.",
          },
        };
      }
      if (choice.kind === "until-growth" && (sub.kind !== "collection" || !(choice.sessions > 0))) {
        return {
          next: null,
          mute: false,
          outcome: { ok: false, reason: "invalid", note: "“Until more sessions” is for collections." },
        };
      }
      const snooze: Snooze = {
        by: action.userId,
        at,
        until: snoozeUntil(action, now),
        choice,
        missedFailures: sub.snooze?.missedFailures ?? 0,
        countAtStart: sub.kind === "collection" ? sub.alertedCount : null,
      };
      return {
        next: { ...sub, snooze, lastChangeAt: at },
        mute: false,
        outcome: {
          ok: true,
          note: "Snoozed: nothing is posted for this item until the snooze ends; then one message sums up.",
        },
      };
    }
    case "unsnooze":
      if (!sub.snooze)
        return { next: null, mute: false, outcome: { ok: true, note: "This alert was not snoozed." } };
      return {
        next: { ...sub, snooze: null, lastChangeAt: at },
        mute: false,
        outcome: { ok: true, note: "Snooze ended." },
      };
    case "mute":
      return {
        next: null,
        mute: true,
        outcome: {
          ok: true,
          note: `Muted: this channel no longer gets alerts for this ${sub.kind}. Undo with \`/decipher subscribe ${sub.kind} ${sub.kind === "test" ? sub.testId : sub.collectionId}\`.`,
        },
      };
  }
}

/** Whether a snooze holds at `now` (a timed one ends by itself; the others end on an event). */
export function isSnoozed(sub: Subscription, now: Date): boolean {
  const snooze = sub.snooze;
  if (!snooze) return false;
  return snooze.until === null || Date.parse(snooze.until) > now.getTime();
}
