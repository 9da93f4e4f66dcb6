import { dateToken } from "../messages/mrkdwn.ts";
import { vendorErrorSentence } from "../messages/vendor-error-message.ts";
import { triageRefusal } from "../model/admins.ts";
import { subscriptionId } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import type { Acknowledgement, Muted, Snooze, TriageAction, TriageOutcome } from "../model/triage-state.ts";
import { update } from "../slack-api/post-message.ts";
import { openParent } from "./alert-parents.ts";
import { baselineCollection } from "./baseline.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { richBlockGate } from "./rich-block-gate.ts";

/** `next`: the state to store, or null when nothing changes. */
export type TriageResult = { next: Subscription | null; outcome: TriageOutcome };

const MAX_ACKS = 10;
const MAX_SNOOZE_HOURS = 24 * 7;

function snoozeUntil(action: Extract<TriageAction, { type: "snooze" }>, now: Date): string | null {
  return action.choice.kind === "for"
    ? new Date(now.getTime() + action.choice.hours * 3_600_000).toISOString()
    : null;
}

/** The reply to Snooze names when it ends: a date token for a timed one, the event otherwise. */
/** When a snooze ends, in words ("until …"). */
const snoozeEnd = (snooze: Pick<Snooze, "until" | "choice" | "countAtStart" | "at">): string =>
  snooze.choice.kind === "until-pass"
    ? "until a run of this test passes"
    : snooze.choice.kind === "until-growth"
      ? `until it has ${snooze.choice.sessions} more sessions than ${snooze.countAtStart === null ? "it had" : `the ${snooze.countAtStart} it had`} ${dateToken(snooze.at)}`
      : `until ${dateToken(snooze.until)}`;

export function snoozedNote(snooze: Pick<Snooze, "until" | "choice" | "countAtStart" | "at">): string {
  return `Snoozed ${snoozeEnd(snooze)}: nothing is posted for this item until then; then one message sums up.`;
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
  const refusal = triageRefusal(deps.config.adminUserIds, action);
  const refused: TriageResult | null = refusal
    ? { next: null, outcome: { ok: false, reason: "invalid", note: refusal } }
    : null;
  if (refused) return refused;
  if (action.type === "unmute") return unmute(sub, action.userId, deps, now);
  const result = decideTriage(sub, action, now);
  // The open alert shows the change (who is looking, the snooze, who muted it), and keeps
  // everything else it showed when it was posted.
  const parent = result.next ? openParent(result.next, deps.config.decipherAppUrl, now) : null;
  if (parent && deps.budget.has(1))
    await update(deps.slack, sub.channelId, parent.ts, parent.message, richBlockGate(deps, sub.teamId));
  return result;
}

/**
 * Unmute clears the mute: the ledger kept counting every run while muted (as `counted`,
 * reason `muted`), so nothing is replayed and nothing is lost. The alert that was muted is
 * live again: it says who unmuted it and offers the controls its state calls for (a test still
 * failing: Acknowledge, Snooze, Mute, its streak counted through the mute; a green one: what
 * a green alert offers), and it keeps its evidence.
 */
async function unmute(sub: Subscription, userId: string, deps: EngineDeps, now: Date): Promise<TriageResult> {
  if (!sub.muted) return { next: null, outcome: { ok: true, note: "This subscription was not muted." } };
  const name = `${sub.kind} ${subscriptionId(sub)}`;
  const at = now.toISOString();
  let next: Subscription;
  if (sub.kind === "test") {
    next = { ...sub, muted: null, unmutedAt: at, quietFailures: 0, lastChangeAt: at };
  } else {
    // A collection was not polled while muted: its growth is measured from now on. Its alert
    // stays its alert (later growth replies in its thread), unless it was resolved meanwhile:
    // then new sessions are a regression, told in a new message.
    try {
      const fresh = await baselineCollection(deps.vendor, sub.collectionId, sub.growth, {
        channelId: sub.channelId,
        userId,
        now,
      });
      next = {
        ...sub,
        muted: null,
        rootCause: fresh.rootCause || sub.rootCause,
        alertedCount: fresh.alertedCount,
        alertedAt: fresh.alertedAt,
        wasResolved: fresh.wasResolved,
        regressed: fresh.regressed,
        threadTs: fresh.wasResolved ? null : sub.threadTs,
        lastError: null,
        failingSince: null,
        lastChangeAt: at,
      };
    } catch (error) {
      return {
        next: null,
        outcome: {
          ok: false,
          reason: "invalid",
          note: `Could not unmute ${name}: ${vendorErrorSentence(error, name)} It stays muted.`,
        },
      };
    }
  }
  const unmutedBy: Muted = { by: userId, at };
  // The alert the mute was shown on: a collection resolved meanwhile no longer follows it.
  const shown =
    next.kind === "collection" && sub.kind === "collection" ? { ...next, threadTs: sub.threadTs } : next;
  const parent = openParent(shown, deps.config.decipherAppUrl, now, unmutedBy);
  if (parent && deps.budget.has(1))
    await update(deps.slack, sub.channelId, parent.ts, parent.message, richBlockGate(deps, sub.teamId));
  return {
    next,
    outcome: {
      ok: true,
      note: `Unmuted ${name}: this channel gets its alerts again, from now on (what failed while it was muted is counted in status and the digest, not posted).`,
    },
  };
}

/**
 * The reply to Mute. A mute ends a running snooze (Unmute does not bring it back), so the reply
 * says so: the snooze must not vanish from the alert unexplained.
 */
export function mutedNote(
  kind: Subscription["kind"],
  id: number,
  snooze: Pick<Snooze, "until" | "choice" | "countAtStart" | "at"> | null,
): string {
  const ended = snooze
    ? ` Its snooze (${snoozeEnd(snooze)}) ends with the mute: after Unmute, its alerts come at once.`
    : "";
  return `Muted: this channel gets no alerts for this ${kind} until someone clicks Unmute (on the alert, in \`/decipher status\` or the app's Home) or types \`/decipher subscribe ${kind} ${id}\`.${ended}`;
}

function decideTriage(
  sub: Subscription,
  action: Exclude<TriageAction, { type: "unmute" }>,
  now: Date,
): TriageResult {
  const at = now.toISOString();
  switch (action.type) {
    case "acknowledge": {
      // Who is looking belongs to an open alert (a failure streak, or the "is flaky" alert, whose
      // test passes in between): kept on a passing test, it would greet the next one.
      if (sub.kind === "test" && !sub.streak && !sub.flakyThread) {
        return {
          next: null,
          outcome: { ok: true, note: "This test passes again: its alert needs nobody looking." },
        };
      }
      const acks = sub.acknowledgedBy ?? [];
      if (acks.some((a) => a.userId === action.userId)) {
        return {
          next: null,
          outcome: { ok: true, note: "You had already acknowledged this alert." },
        };
      }
      const ack: Acknowledgement = { userId: action.userId, at };
      return {
        next: { ...sub, acknowledgedBy: [...acks, ack].slice(-MAX_ACKS), lastChangeAt: at },
        outcome: { ok: true, note: "Acknowledged: the alert now shows you are looking." },
      };
    }
    case "snooze": {
      const { choice } = action;
      if (choice.kind === "for" && !(choice.hours > 0 && choice.hours <= MAX_SNOOZE_HOURS)) {
        return {
          next: null,
          outcome: { ok: false, reason: "invalid", note: "That snooze length is not one the bot offers." },
        };
      }
      if (choice.kind === "until-pass" && sub.kind !== "test") {
        return {
          next: null,
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
        outcome: {
          ok: true,
          note: snoozedNote(snooze),
        },
      };
    }
    case "unsnooze":
      if (!sub.snooze) return { next: null, outcome: { ok: true, note: "This alert was not snoozed." } };
      return {
        next: { ...sub, snooze: null, lastChangeAt: at },
        outcome: { ok: true, note: "Snooze ended." },
      };
    case "mute": {
      const id = subscriptionId(sub);
      if (sub.muted) return { next: null, outcome: { ok: true, note: "This alert was already muted." } };
      return {
        // Kept, not deleted: status, list, Home and the digest show it muted, with Unmute.
        next: { ...sub, muted: { by: action.userId, at }, snooze: null, lastChangeAt: at },
        outcome: { ok: true, note: mutedNote(sub.kind, id, sub.snooze ?? null) },
      };
    }
  }
}
