import { openAlertTs, showsFlakyParent, showsTestParent } from "../model/open-alert.ts";
import { byRowTime, type LedgerRow, undecidedRow } from "../model/run-ledger.ts";
import type { ParentEdit, TestSubscription } from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import type { Change, TestStep } from "./test-step.ts";
import { type Acc, change, done, flakyThreadToday, type Look, type Next, runOf } from "./test-step-state.ts";

/**
 * The steps `decideTestStep` takes once every run has its fate: a snooze that ran out is
 * summed up, and the edits the state owes its alerts are made.
 */

/** The snooze ran out: the parent that showed it drops it, and failures it hid are summed up once. */
export function snoozeEnd(look: Look, acc: Acc): Next {
  const { input } = look;
  const sub = acc.sub;
  const snooze = sub.snooze;
  if (!snooze || isSnoozed(sub, input.now)) return { acc };
  // The parent that showed the snooze (the open streak's, else the green one) drops it.
  const shownAt = sub.streak && !sub.streak.grouped ? { ts: sub.streak.threadTs, streak: sub.streak } : null;
  // With no streak open, the day's "is flaky" alert may be the one showing it (src/model/open-alert.ts).
  const flakyTs = sub.flakyThread?.ts;
  const flakyShows = !shownAt && flakyTs !== undefined && openAlertTs(sub) === flakyTs;
  const ended: TestSubscription = {
    ...sub,
    snooze: null,
    parentEdit: sub.parentEdit ?? shownAt ?? (flakyShows ? null : (sub.recoveredParent ?? null)),
    ...(flakyShows ? { flakyEdit: flakyTs } : {}),
  };
  if (snooze.missedFailures === 0) return { acc: { ...acc, sub: ended } };
  // Said from the runs themselves: a snooze that began after a recovery has no streak to ask.
  const last = input.rows
    .filter((r) => r.status === "passed" || r.status === "failed")
    .reduce<LedgerRow | null>((a, r) => (!a || byRowTime(a, r) < 0 ? r : a), null);
  // A flaky test's summary goes in the day's thread, where its alert said its failures go.
  // A streak that the pass ended: its alert's thread, where the held failures belong.
  const threadTs =
    sub.streak?.threadTs ??
    flakyThreadToday(sub, input.now) ??
    sub.parentEdit?.ts ??
    sub.recoveredParent?.ts ??
    undefined;
  return {
    step: {
      kind: "post",
      change: change(acc),
      key: `snooze-end:${snooze.at}`,
      message: {
        kind: "snooze-ended",
        by: snooze.by,
        missedFailures: snooze.missedFailures,
        lastFailed: sub.streak !== null || last?.status === "failed",
      },
      ...(threadTs ? { threadTs } : {}),
      delivered: () => ({ sub: ended, rows: [...acc.rows] }),
    },
  };
}

/**
 * The open alert was deleted by a person (Slack: `message_not_found`): before anything else is
 * told, it is posted again as a new alert, which says so; its thread is where the streak goes
 * on. With no streak open there, nothing needs it again.
 */
export function parentGoneStep(acc: Acc): Next {
  const gone = acc.sub.parentGone;
  if (!gone) return { acc };
  const streak = acc.sub.streak;
  const forget = (sub: TestSubscription): TestSubscription => ({
    ...sub,
    parentGone: null,
    ...(sub.parentEdit?.ts === gone ? { parentEdit: null } : {}),
    ...(sub.owedEdit?.ts === gone ? { owedEdit: null } : {}),
  });
  if (!streak || streak.grouped || streak.threadTs !== gone) return { acc: { ...acc, sub: forget(acc.sub) } };
  const sub = acc.sub;
  return {
    step: {
      kind: "post",
      change: change(acc),
      key: `again:${gone}`,
      message: { kind: "failure-alert", sub, streak, recoveredBy: null, ping: false, passedNext: false },
      replacesDeleted: true,
      delivered: (ts) => ({
        sub: { ...forget(sub), streak: { ...streak, threadTs: ts } },
        rows: [...acc.rows],
      }),
    },
  };
}

/** What Slack's `message_not_found` for the open alert `ts` makes of the state. */
export function parentDeleted(sub: TestSubscription, ts: string): TestSubscription | null {
  return sub.streak && !sub.streak.grouped && sub.streak.threadTs === ts ? { ...sub, parentGone: ts } : null;
}

/** The first edit the state owes: its parent's, the day's flaky alert's, then one Slack put off. */
export function firstEdit(look: Look, acc: Acc): TestStep {
  for (const edit of [parentEdit, flakyEdit, owedEdit]) {
    const next = edit(look, acc);
    if ("step" in next) return next.step;
    acc = next.acc;
  }
  return done(acc);
}

/** An edit of a parent as it stands now; with nothing to show, `afterSub` applies at once. */
function editStep(look: Look, acc: Acc, edit: ParentEdit, afterSub: TestSubscription): Next {
  const sub = acc.sub;
  const shown = !edit.recoveredBy && sub.streak?.threadTs === edit.ts ? sub.streak : edit.streak;
  if (!showsTestParent(shown)) return { acc: { ...acc, sub: afterSub } };
  const pass = edit.recoveredBy;
  const recoveredBy = pass ? runOf(look.input, undecidedRow(pass.id, "passed", pass.at)) : null;
  return {
    step: {
      kind: "edit",
      change: change(acc),
      ts: edit.ts,
      message: { kind: "failure-alert", sub, streak: shown, recoveredBy, ping: false, passedNext: false },
      after: { sub: afterSub, rows: [...acc.rows] },
      owed: { owedEdit: edit },
    },
  };
}

/** The parent's pending edit (its status line). */
export function parentEdit(look: Look, acc: Acc): Next {
  const sub = acc.sub;
  const edit = sub.parentEdit;
  if (!edit) return { acc };
  // A later edit of the same parent says all an owed one would have.
  const owed = sub.owedEdit?.ts === edit.ts ? null : (sub.owedEdit ?? null);
  return editStep(look, acc, edit, {
    ...sub,
    parentEdit: null,
    owedEdit: owed,
    ...(edit.recoveredBy ? { recoveredParent: edit } : {}),
  });
}

/** The day's "is flaky" alert re-rendered, once a snooze it showed ended. */
function flakyEdit(_look: Look, acc: Acc): Next {
  const ts = acc.sub.flakyEdit;
  if (!ts) return { acc };
  const flaky = acc.sub.flakyThread?.ts === ts ? acc.sub.flakyThread : null;
  const after: Change = { sub: { ...acc.sub, flakyEdit: null }, rows: [...acc.rows] };
  if (!flaky || !showsFlakyParent(flaky)) return { acc: { ...acc, sub: after.sub } };
  return {
    step: {
      kind: "edit",
      change: change(acc),
      ts,
      message: { kind: "flaky-alert", sub: after.sub, flaky },
      after,
      owed: { flakyEdit: ts },
    },
  };
}

/** The edit Slack refused for now in an earlier poll, made again. */
function owedEdit(look: Look, acc: Acc): Next {
  const edit = acc.sub.owedEdit;
  if (!edit || look.input.retryOwedEdit === false) return { acc };
  return editStep(look, acc, edit, { ...acc.sub, owedEdit: null });
}
