import { dateToken } from "../messages/mrkdwn.ts";
import { vendorErrorSentence } from "../messages/vendor-error-message.ts";
import { triageRefusal } from "../model/admins.ts";
import { factsOf, subscriptionId } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import type { Acknowledgement, Muted, Snooze, TriageAction, TriageOutcome } from "../model/triage-state.ts";
import { update } from "../slack-api/post-message.ts";
import type { OpenParent } from "./alert-parents.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { richBlockGate } from "./rich-block-gate.ts";

/**
 * What triage does differently by kind, from the kind's spec (src/kinds/<kind>/triage.ts):
 * the engine below src/kinds/ gets it from the subscription's object.
 */
export type KindTriage<S extends Subscription> = {
  /** Its open alert re-rendered (src/engine/alert-parents.ts), or null with none open. */
  openParent(sub: S, appUrl: string, now: Date, unmutedBy?: Muted | null): OpenParent | null;
  /** Its state once unmuted at `now` (throws when what it must read again cannot be read). */
  unmuted(sub: S, userId: string, deps: EngineDeps, now: Date): Promise<S>;
  /** The alert the mute was shown on, which the unmute is shown on: `next`'s, or `before`'s. */
  shownAfterUnmute(next: S, before: S): S;
  /** Why nobody need acknowledge it now (no alert is open), or null. */
  nothingToAcknowledge(sub: S): string | null;
  /** The count a snooze until more sessions counts from, or null. */
  snoozeCount(sub: S): number | null;
};

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
  kind: KindTriage<Subscription>,
): Promise<TriageResult> {
  const refusal = triageRefusal(deps.config.adminUserIds, action);
  const refused: TriageResult | null = refusal
    ? { next: null, outcome: { ok: false, reason: "invalid", note: refusal } }
    : null;
  if (refused) return refused;
  if (action.type === "unmute") return unmute(sub, action.userId, deps, now, kind);
  const result = decideTriage(sub, action, now, kind);
  // The open alert shows the change (who is looking, the snooze, who muted it), and keeps
  // everything else it showed when it was posted.
  const parent = result.next ? kind.openParent(result.next, deps.config.decipherAppUrl, now) : null;
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
async function unmute(
  sub: Subscription,
  userId: string,
  deps: EngineDeps,
  now: Date,
  kind: KindTriage<Subscription>,
): Promise<TriageResult> {
  if (!sub.muted) return { next: null, outcome: { ok: true, note: "This subscription was not muted." } };
  const name = `${sub.kind} ${subscriptionId(sub)}`;
  let next: Subscription;
  try {
    next = await kind.unmuted(sub, userId, deps, now);
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
  const unmutedBy: Muted = { by: userId, at: now.toISOString() };
  const parent = kind.openParent(
    kind.shownAfterUnmute(next, sub),
    deps.config.decipherAppUrl,
    now,
    unmutedBy,
  );
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
  kind: KindTriage<Subscription>,
): TriageResult {
  const at = now.toISOString();
  switch (action.type) {
    case "acknowledge": {
      // Who is looking belongs to an open alert (a failure streak, or the "is flaky" alert, whose
      // test passes in between): kept on a passing test, it would greet the next one.
      const closed = kind.nothingToAcknowledge(sub);
      if (closed) return { next: null, outcome: { ok: true, note: closed } };
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
      const until = factsOf(sub).untilSnooze;
      if (choice.kind === "until-pass" && until !== choice.kind) {
        return {
          next: null,
          outcome: {
            ok: false,
            reason: "invalid",
            note: "“Until it passes” is for tests; collections snooze until more sessions.",
          },
        };
      }
      if (choice.kind === "until-growth" && (until !== choice.kind || !(choice.sessions > 0))) {
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
        countAtStart: kind.snoozeCount(sub),
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
