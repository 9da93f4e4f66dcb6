import type { TestInfo, TestRun } from "../decipher/types.ts";
import { failedThenPassed, recoveryThreadReply } from "../messages/failed-run-card.ts";
import { flakyThreadReply } from "../messages/failure-meaning.ts";
import { withLateNote } from "../messages/late-note.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { testUrl } from "../messages/links.ts";
import { link } from "../messages/mrkdwn.ts";
import { FAILURES_PER_REPLY, streakReply } from "../messages/streak-reply.ts";
import { classifiedThrough, testAlertEvidence } from "../model/alert-evidence.ts";
import type { FailureContext } from "../model/failure-context.ts";
import {
  byRowTime,
  type CountedReason,
  type Fate,
  isOverdue,
  type LedgerRow,
  rowTime,
  undecidedRow,
} from "../model/run-ledger.ts";
import {
  type FailureStreak,
  type FlakyThread,
  type ParentEdit,
  resolveTestOptions,
  type TestSubscription,
  unacknowledged,
} from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { flakyParent, openParent, testParent } from "./alert-parents.ts";
import { runsInOutbox, runsKey } from "./outbox.ts";
import type { OutageGroup } from "./poll-context.ts";
import type { HeldFailure } from "./poll-outcome.ts";
import { endedByPass } from "./snooze.ts";

export type TestPollInput = {
  sub: TestSubscription;
  /** The ledger as it stands, this poll's reads included. */
  rows: readonly LedgerRow[];
  /** Full runs read this poll, for the messages; a row without one is told from what the ledger holds. */
  runs: ReadonlyMap<number, TestRun>;
  test: TestInfo;
  /** What a new failure means (history, class, production); read only when one may open a streak. */
  meaning: FailureContext | null;
  appUrl: string;
  now: Date;
  /** The first look of a cron cycle: a failure that would open a new alert is held for the outage check. */
  hold: boolean;
  /** The channel's outage message named these runs: they adopt it as their thread. */
  group: OutageGroup | null;
  /** The cron cycle this poll belongs to (default: this poll): a held failure is that cycle's to settle. */
  cycle?: string;
  /**
   * The outbox's keys, sent or not. A failure whose own alert Slack may already hold (an
   * outcome unknown, or found after a lost answer before its fate was recorded) is told
   * through the outbox, which finds it, never held for an outage message that would name it again.
   */
  inOutbox?: ReadonlySet<string>;
  /**
   * Overdue failures the channel keeps waiting: a message of its that may name them has an
   * unknown outcome (src/objects/channel-object.ts `claim`). Told once that is settled.
   */
  waitingOnChannel?: ReadonlySet<number>;
  /** Whether the state's owed edit (`owedEdit`) is tried in this step: not again in a poll where it failed. */
  retryOwedEdit?: boolean;
};

/** How long a failure held for one cycle's outage check waits for that cycle's answer. */
export const HOLD_FOR_MS = 60_000;

/** What the state becomes: fates to record and the subscription to store. */
export type Change = { sub: TestSubscription; rows: LedgerRow[] };

/**
 * The next thing a poll does. Only `post` talks to Slack; its `delivered` says what the ledger
 * and the state become once Slack has the message (with its ts). Every fate that needs a
 * message is recorded only through `delivered`, so a run is never told without a record and
 * never recorded as told without the message.
 */
export type TestStep =
  | { kind: "done"; change: Change }
  | { kind: "hold"; change: Change; held: HeldFailure }
  | {
      kind: "post";
      /** Recorded before the post: decisions that needed no message. */
      change: Change;
      /** The idempotency key: the same message decided twice carries the same key. */
      key: string;
      message: SlackMessage;
      threadTs?: string;
      delivered: (ts: string) => Change;
    }
  | {
      kind: "edit";
      change: Change;
      ts: string;
      message: SlackMessage;
      /** Once Slack took the edit, or refused it for good. */
      after: Change;
      /** What the state keeps when Slack refuses the edit for now, so the next poll makes it. */
      owed: Pick<TestSubscription, "owedEdit"> | Pick<TestSubscription, "flakyEdit">;
    };

const needsFate = (row: LedgerRow, now: Date) =>
  row.fate === null || (row.fate === "quarantined" && row.status !== "unreadable") || isOverdue(row, now);

/** The run as the messages need it: the one read this poll, else what the ledger knows. */
function runOf(input: TestPollInput, row: LedgerRow): TestRun {
  return (
    input.runs.get(row.id) ?? {
      object: "testRun",
      id: row.id,
      testId: input.sub.testId,
      // A test's ledger holds no `grown` rows (a collection's growth); both read as needing telling.
      status: row.status === "unreadable" || row.status === "grown" ? "failed" : row.status,
      startTime: row.createdAt ?? row.firstSeen,
      endTime: null,
      durationMs: null,
      triggeredBy: row.trigger ?? "",
      createdAt: row.createdAt ?? row.firstSeen,
      summary: null,
      totalSteps: 0,
      failedSteps: 0,
    }
  );
}

const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The day's flaky thread, when the bot called the test flaky today (UTC day): its ts, else null. */
const flakyThreadToday = (sub: TestSubscription, now: Date) =>
  sub.flakyThread?.day === utcDay(now) ? sub.flakyThread.ts : null;

/**
 * Called flaky today: its alert said its failures until the end of this UTC day go in its
 * thread, so every failure of the day keeps to that thread (unless `flaky:alert`). Such a failure is never held for the
 * channel's outage window: it neither counts toward an outage nor is named in one.
 */
export function calledFlakyToday(sub: TestSubscription, now: Date): boolean {
  return flakyThreadToday(sub, now) !== null && resolveTestOptions(sub.options).flaky !== "alert";
}

/** Counted failures kept on the state: enough for a day of a test that runs every few minutes. */
const MAX_COUNTED = 50;

/**
 * Decides what one test subscription does next, from its ledger, its state and the time; no
 * I/O. Called again after each step is carried out, until it answers `done` or `hold`. Runs
 * are taken in the ledger's time order (`byRowTime`) only to tell a streak in order; which
 * runs need telling comes from their fates, never from a position or a watermark.
 */
export function decideTestStep(input: TestPollInput): TestStep {
  const { now, test, appUrl } = input;
  const at = now.toISOString();
  const options = resolveTestOptions(input.sub.options);
  const groupIds = new Set(input.group?.runIds ?? []);
  let sub: TestSubscription = input.sub;
  const rows: LedgerRow[] = [];
  const change = (): Change => ({ sub, rows: [...rows] });
  const fate = (
    row: LedgerRow,
    f: Fate,
    extra: { ts?: string | null; parentTs?: string | null; reason?: string | null } = {},
  ) =>
    ({
      ...row,
      fate: f,
      ts: extra.ts ?? null,
      parentTs: extra.parentTs ?? null,
      reason: extra.reason ?? null,
      decidedAt: at,
    }) satisfies LedgerRow;
  const counted = (row: LedgerRow, reason: CountedReason) => {
    rows.push(fate(row, "counted", { reason }));
    // Kept on the state for status, which reads the state's copy, not the ledger.
    const list = [...(sub.counted ?? []), { runId: row.id, reason, at }].slice(-MAX_COUNTED);
    sub = { ...sub, counted: list };
  };

  /** An edit of a parent as it stands now, or null when there is nothing to show (then `after` applies at once). */
  const editStep = (edit: ParentEdit, afterSub: TestSubscription): TestStep | null => {
    const after: Change = { sub: afterSub, rows: [...rows] };
    const shown = !edit.recoveredBy && sub.streak?.threadTs === edit.ts ? sub.streak : edit.streak;
    const parent = testParent(sub, shown, {
      test,
      appUrl,
      now,
      recoveredBy: edit.recoveredBy
        ? runOf(input, undecidedRow(edit.recoveredBy.id, "passed", edit.recoveredBy.at))
        : null,
    });
    if (parent)
      return {
        kind: "edit",
        change: change(),
        ts: edit.ts,
        message: parent,
        after,
        owed: { owedEdit: edit },
      };
    sub = after.sub;
    return null;
  };

  /** The parent's pending edit (its status line), or null when it has none or nothing to show. */
  const parentEditStep = (): TestStep | null => {
    const edit = sub.parentEdit;
    if (!edit) return null;
    // A later edit of the same parent says all an owed one would have.
    const owed = sub.owedEdit?.ts === edit.ts ? null : (sub.owedEdit ?? null);
    return editStep(edit, {
      ...sub,
      parentEdit: null,
      owedEdit: owed,
      ...(edit.recoveredBy ? { recoveredParent: edit } : {}),
    });
  };

  /** The day's "is flaky" alert re-rendered, once a snooze it showed ended. */
  const flakyEditStep = (): TestStep | null => {
    const ts = sub.flakyEdit;
    if (!ts) return null;
    const flaky = sub.flakyThread?.ts === ts ? sub.flakyThread : null;
    const after: Change = { sub: { ...sub, flakyEdit: null }, rows: [...rows] };
    const message = flaky && flakyParent(after.sub, flaky, { test, appUrl, now });
    if (message) return { kind: "edit", change: change(), ts, message, after, owed: { flakyEdit: ts } };
    sub = after.sub;
    return null;
  };

  /** The edit Slack refused for now in an earlier poll, made again. */
  const owedEditStep = (): TestStep | null => {
    const edit = sub.owedEdit;
    if (!edit || input.retryOwedEdit === false) return null;
    return editStep(edit, { ...sub, owedEdit: null });
  };

  const pending = input.rows.filter((row) => needsFate(row, now)).sort(byRowTime);
  /** The outbox key that names each failed run: Slack may hold (or holds) a post telling it. */
  const byId = new Map(input.rows.map((r) => [r.id, r]));
  const namedBy = runsInOutbox(input.inOutbox, (id) => {
    const r = byId.get(id);
    return r?.status === "failed" && r.fate !== null;
  });

  /**
   * A failure that ended before the Unmute, read only now, happened while muted: counted, as
   * the Unmute said, not posted, nor told in the reply of a failure read with it.
   */
  const endedWhileMuted = (row: LedgerRow) => {
    // Only a run read in this poll says when it ended (the ledger keeps when it began): one
    // that is not read again (its post refused for now) is told rather than guessed muted.
    const ended = Date.parse(input.runs.get(row.id)?.endTime ?? "");
    return !!sub.unmutedAt && Number.isFinite(ended) && ended < Date.parse(sub.unmutedAt);
  };

  /**
   * The rows after `i` that one reply tells with it: the further failures of its streak, up to
   * the pass that ends them. Never a row that is the outage's to tell, or that has an intent of
   * its own in the outbox (Slack may hold its post already).
   */
  const readWith = (i: number, late: boolean): { failures: LedgerRow[]; pass: LedgerRow | null } => {
    const failures: LedgerRow[] = [];
    const head = namedBy.get((pending[i] as LedgerRow).id);
    for (const r of pending.slice(i + 1)) {
      if (r.status === "running") continue;
      if (options.trigger && r.trigger !== options.trigger) break;
      // A run another post may hold is told through that post's key, not in this reply.
      if (groupIds.has(r.id) || (namedBy.has(r.id) && namedBy.get(r.id) !== head)) break;
      if (r.status === "failed" && endedWhileMuted(r)) break;
      if (r.status === "failed" && isOverdue(r, now) === late && failures.length + 1 < FAILURES_PER_REPLY)
        failures.push(r);
      else if (r.status === "passed" && !input.inOutbox?.has(`recovery:${r.id}`))
        return { failures, pass: r };
      else break;
    }
    return { failures, pass: null };
  };
  for (let i = 0; i < pending.length; i++) {
    const row = pending[i] as LedgerRow;
    // A recovered parent is edited before the next run is told: the state holds one pending
    // edit, and the next streak's own edit (or a hold) would otherwise leave it saying failing.
    if (sub.parentEdit?.recoveredBy && row.status !== "running") {
      const step = parentEditStep();
      if (step) return step;
    }
    if (row.status === "running") continue;
    if (row.status === "unreadable") {
      if (row.fate === null && isOverdue({ ...row, status: "failed" }, now))
        rows.push(fate(row, "quarantined", { reason: "unreadable run" }));
      continue;
    }
    const run = runOf(input, row);
    // `trigger:` leaves other runs out entirely: they neither alert nor recover.
    if (options.trigger && row.trigger !== options.trigger) {
      if (row.status === "failed") counted(row, "trigger");
      else rows.push(fate(row, "quiet", { reason: "trigger" }));
      continue;
    }
    const streak = sub.streak;
    if (row.status === "passed") {
      const ends = streak !== null && rowTime(row) >= Date.parse(streak.lastFailedAt ?? "");
      if (!ends || !streak) {
        rows.push(fate(row, "quiet"));
        // "Until it passes" ends on a flaky test's pass too (its failures open no streak).
        const ended = endedByPass(sub.snooze, rowTime(row), now);
        if (ended) sub = { ...sub, snooze: ended };
        if ((sub.quietFailures ?? 0) > 0) sub = { ...sub, quietFailures: 0 };
        continue;
      }
      if (isSnoozed(sub, now) || sub.muted) {
        // "Until it passes" ends here; a timed snooze holds for its time. Snoozed or muted, the
        // thread stays quiet; the parent turns green (muted, it keeps its Unmute).
        const reason = sub.muted ? "muted" : "snoozed";
        // A pass that ran before the click recovers the streak but is not the pass the snooze waits for.
        // It ends as of the pass, so the snooze's summary (what it held) is told below, as promised.
        const ended = endedByPass(sub.snooze, rowTime(row), now);
        if (ended) sub = { ...sub, snooze: ended };
        rows.push(fate(row, "recovered", { ts: streak.grouped ? null : streak.threadTs, reason }));
        sub = endedStreak(sub, streak, run);
        continue;
      }
      return {
        kind: "post",
        change: change(),
        key: `recovery:${run.id}`,
        message: recoveryThreadReply({ test, run, failedRuns: streak.failedRuns, appUrl, now }),
        threadTs: streak.threadTs,
        delivered: (ts) => ({
          sub: endedStreak(sub, streak, run),
          rows: [...rows, fate(row, "recovered", { ts, parentTs: streak.threadTs })],
        }),
      };
    }

    // A failure.
    if (groupIds.has(row.id) && input.group) {
      const next = pending[i + 1];
      const passedThere =
        input.group.passedNext?.includes(run.id) &&
        next?.status === "passed" &&
        (!options.trigger || next.trigger === options.trigger)
          ? next
          : null;
      if (passedThere) {
        // Named "then passed on the next run": that pass is told by the outage message, once.
        rows.push(fate(row, "grouped", { ts: input.group.ts }));
        rows.push(fate(passedThere, "recovered", { ts: input.group.ts }));
        sub = { ...sub, streak: null, quietFailures: 0, heldFor: null, namedByOutage: input.group.ts };
        i++;
        continue;
      }
      const opened: FailureStreak = {
        threadTs: input.group.ts,
        failedRuns: 1,
        firstRunId: run.id,
        lastRunId: run.id,
        firstRun: run,
        lastFailedAt: new Date(rowTime(row)).toISOString(),
        grouped: true,
      };
      rows.push(fate(row, "grouped", { ts: input.group.ts }));
      sub = {
        ...unacknowledged(sub),
        streak: opened,
        quietFailures: 0,
        heldFor: null,
        namedByOutage: input.group.ts,
      };
      continue;
    }
    if (sub.muted || endedWhileMuted(row)) {
      counted(row, "muted");
      // The streak goes on, unposted: an alert unmuted later says how long the test has been red.
      if (streak) {
        const grown = grow(streak, run, row);
        // Read after the Unmute, the live alert says it now ("failing for 2 runs").
        const edit =
          !sub.muted && !grown.grouped ? { parentEdit: { ts: grown.threadTs, streak: grown } } : {};
        sub = { ...sub, streak: grown, ...edit };
      }
      continue;
    }
    if (isSnoozed(sub, now) && sub.snooze) {
      counted(row, "snoozed");
      sub = {
        ...sub,
        snooze: { ...sub.snooze, missedFailures: sub.snooze.missedFailures + 1 },
        ...(streak ? { streak: grow(streak, run, row) } : {}),
      };
      continue;
    }
    const late = isOverdue(row, now);
    if (streak) {
      // The streak's next failures read in this same look, and the pass that ends them, are one reply.
      const look = readWith(i, late);
      const failures = [row, ...look.failures];
      const grown = failures.reduce((s, r) => grow(s, runOf(input, r), r), streak);
      const recovered = look.pass ? runOf(input, look.pass) : null;
      const message = streakReply({
        test,
        runs: failures.map((r) => runOf(input, r)),
        failedRuns: grown.failedRuns,
        recoveredBy: recovered,
        appUrl,
        now,
        named: streak.grouped === true,
      });
      const told = (ts: string) =>
        failures.map((r) => fate(r, "threaded", { ts, parentTs: streak.threadTs }));
      return {
        kind: "post",
        change: change(),
        // A reply Slack may hold already keeps its key: found, it is edited to say these runs.
        key: namedBy.get(row.id) ?? runsKey(failures.map((r) => r.id)),
        message: late ? withLateNote(message, row.firstSeen) : message,
        threadTs: streak.threadTs,
        delivered: (ts) =>
          look.pass && recovered
            ? {
                sub: endedStreak(sub, grown, recovered),
                rows: [...rows, ...told(ts), fate(look.pass, "recovered", { ts, parentTs: streak.threadTs })],
              }
            : {
                sub: {
                  ...sub,
                  streak: grown,
                  parentEdit: grown.grouped ? null : { ts: grown.threadTs, streak: grown },
                },
                rows: [...rows, ...told(ts)],
              },
      };
    }
    if (input.waitingOnChannel?.has(run.id)) return { kind: "done", change: change() };
    const flakyOpen = flakyThreadToday(sub, now);
    const keepsToItsThread = calledFlakyToday(sub, now);
    const quiet = sub.quietFailures ?? 0;
    // Any other failure that would be told now is held for the outage window, one that only
    // now looks flaky too (it would open the day's "is flaky" alert): several tests failing
    // together are one outage message, not several alerts. A failure `after:` still waits
    // for is counted without one.
    const wouldTell = !keepsToItsThread && quiet + 1 >= options.after;
    // The channel's call to tell what it decided tells only that. A later failure read with it
    // (failed, passed, failed again) waits for the next poll, which holds it for the window: it
    // joins an outage still open instead of alerting alone beside it.
    if (input.group && !input.hold && wouldTell && !late && !namedBy.has(run.id)) break;
    if (input.hold && wouldTell && !late && !namedBy.has(run.id)) {
      // Recorded, so an overlapping cycle leaves this failure to the cycle deciding the outage.
      sub = {
        ...sub,
        heldFor: { cycle: input.cycle ?? at, until: new Date(now.getTime() + HOLD_FOR_MS).toISOString() },
      };
      const after = pending[i + 1];
      const passedNext =
        after?.status === "passed" && (!options.trigger || after.trigger === options.trigger);
      return {
        kind: "hold",
        change: change(),
        held: {
          testId: sub.testId,
          testName: test.name || sub.testName,
          runId: run.id,
          summary: run.summary?.oneLineSummary ?? null,
          mention: sub.options?.mention ?? null,
          ...(passedNext ? { passedNext: true } : {}),
        },
      };
    }
    const heldElsewhere =
      sub.heldFor &&
      sub.heldFor.cycle !== (input.cycle ?? at) &&
      Date.parse(sub.heldFor.until) > now.getTime();
    // A failure whose own alert Slack may hold is settled through the outbox (looked up, never
    // sent blindly), not left waiting for an outage decision that can no longer name it.
    if (heldElsewhere && wouldTell && !late && !namedBy.has(run.id))
      return { kind: "done", change: change() };
    // What a post says of this run is of its own moment, not of later runs read with it.
    const through = input.meaning ? classifiedThrough(input.meaning, run.id, now) : undefined;
    const flaky =
      keepsToItsThread || (options.flaky !== "alert" && input.meaning?.classification.kind === "flaky");
    if (flaky && options.flaky === "digest") {
      counted(row, "flaky-digest");
      sub = { ...sub, heldFor: null };
      continue;
    }
    if (flaky) {
      // A test called flaky today keeps its failures in the day's thread, whatever the next look says.
      const opened: FlakyThread = {
        ts: "",
        day: utcDay(now),
        firstRun: run,
        // Of run #N, as its card says ("At run #N"): the strip ends with it, and so does the class.
        evidence: testAlertEvidence(input.meaning, run.id, through),
      };
      // A new "is flaky" alert is a new alert: nobody is looking at it yet.
      const base = flakyOpen ? sub : unacknowledged(sub);
      const message = flakyOpen
        ? flakyThreadReply(test, run, input.meaning, appUrl, through)
        : (flakyParent(base, opened, { test, appUrl, now }) as SlackMessage);
      return {
        kind: "post",
        change: change(),
        key: namedBy.get(run.id) ?? runsKey([run.id]),
        message: late ? withLateNote(message, row.firstSeen) : message,
        ...(flakyOpen ? { threadTs: flakyOpen } : {}),
        delivered: (ts) => ({
          sub: { ...base, heldFor: null, ...(flakyOpen ? {} : { flakyThread: { ...opened, ts } }) },
          rows: [
            ...rows,
            flakyOpen ? fate(row, "threaded", { ts, parentTs: flakyOpen }) : fate(row, "announced", { ts }),
          ],
        }),
      };
    }
    if (quiet + 1 < options.after) {
      counted(row, "after");
      sub = { ...sub, quietFailures: quiet + 1 };
      continue;
    }
    // A failure and the pass right after it, seen in one look, are one message that is true as posted.
    const nextRow = pending[i + 1];
    const passedNext =
      nextRow?.status === "passed" && (!options.trigger || nextRow.trigger === options.trigger)
        ? nextRow
        : null;
    const opening: FailureStreak = {
      threadTs: "",
      // Counted from the test's first failure in a row, as its class counts them ("failed 6 runs
      // in a row"), so its replies and its recovery say the same count.
      failedRuns: Math.max(quiet + 1, through?.trailingFailures ?? 0),
      firstRunId: run.id,
      lastRunId: run.id,
      firstRun: run,
      lastFailedAt: new Date(rowTime(row)).toISOString(),
      evidence: testAlertEvidence(input.meaning, run.id, through),
    };
    const recovered = passedNext ? runOf(input, passedNext) : null;
    // A new alert starts with nobody looking: an acknowledgement was for an earlier one.
    const fresh = unacknowledged(sub);
    const card = testParent(fresh, opening, {
      test,
      appUrl,
      now,
      recoveredBy: recovered,
      // The streak's first post is the one that pings; edits and replies never do.
      ping: true,
    }) as SlackMessage;
    const message = passedNext ? failedThenPassed(card, test) : card;
    return {
      kind: "post",
      change: change(),
      key: namedBy.get(run.id) ?? runsKey([run.id]),
      message: late ? withLateNote(message, row.firstSeen) : message,
      delivered: (ts) => ({
        sub: {
          ...fresh,
          streak: recovered ? null : { ...opening, threadTs: ts },
          // Posted green: the last alert of the test, and the one a snooze would show on.
          ...(recovered
            ? {
                recoveredParent: {
                  ts,
                  streak: { ...opening, threadTs: ts },
                  recoveredBy: passMark(recovered),
                },
              }
            : {}),
          quietFailures: 0,
          heldFor: null,
        },
        rows: [
          ...rows,
          fate(row, "announced", { ts }),
          ...(passedNext ? [fate(passedNext, "recovered", { ts })] : []),
        ],
      }),
    };
  }

  // The snooze ran out with failures it hid: one message sums them up.
  const snooze = sub.snooze;
  if (snooze && !isSnoozed(sub, now)) {
    // The parent that showed the snooze (the open streak's, else the green one) drops it.
    const shownAt =
      sub.streak && !sub.streak.grouped ? { ts: sub.streak.threadTs, streak: sub.streak } : null;
    // With no streak open, the day's "is flaky" alert may be the one showing it (src/engine/alert-parents.ts).
    const flakyTs = sub.flakyThread?.ts;
    const flakyShows = !shownAt && flakyTs !== undefined && openParent(sub, appUrl, now)?.ts === flakyTs;
    const ended = {
      ...sub,
      snooze: null,
      parentEdit: sub.parentEdit ?? shownAt ?? (flakyShows ? null : (sub.recoveredParent ?? null)),
      ...(flakyShows ? { flakyEdit: flakyTs } : {}),
    };
    if (snooze.missedFailures > 0) {
      // Linked to the test: the summary may stand alone in the channel, with no open alert to read.
      const name = link(testUrl(input.appUrl, test.id), test.name || `Test ${test.id}`);
      // Said from the runs themselves: a snooze that began after a recovery has no streak to ask.
      const last = input.rows
        .filter((r) => r.status === "passed" || r.status === "failed")
        .reduce<LedgerRow | null>((a, r) => (!a || byRowTime(a, r) < 0 ? r : a), null);
      const failing = sub.streak !== null || last?.status === "failed";
      const state = failing ? "and its last run failed" : "and its last run passed";
      const text = `:sleeping: Snooze by <@${snooze.by}> ended: ${name} failed ${snooze.missedFailures} more time${snooze.missedFailures === 1 ? "" : "s"} while snoozed, ${state}.`;
      // A flaky test's summary goes in the day's thread, where its alert said its failures go.
      // A streak that the pass ended: its alert's thread, where the held failures belong.
      const threadTs =
        sub.streak?.threadTs ??
        flakyThreadToday(sub, now) ??
        sub.parentEdit?.ts ??
        sub.recoveredParent?.ts ??
        undefined;
      return {
        kind: "post",
        change: change(),
        key: `snooze-end:${snooze.at}`,
        message: { text, blocks: [] },
        ...(threadTs ? { threadTs } : {}),
        delivered: () => ({ sub: ended, rows: [...rows] }),
      };
    }
    sub = ended;
  }

  return parentEditStep() ?? flakyEditStep() ?? owedEditStep() ?? { kind: "done", change: change() };
}

/** The pass that ended a streak, as a parent keeps it. */
const passMark = (run: TestRun) => ({ id: run.id, at: run.endTime ?? run.createdAt });

/**
 * The state once the pass `by` ended `streak`: nobody looking, no streak, and its parent owed
 * the edit to green (an outage message is the channel's to edit).
 */
function endedStreak(sub: TestSubscription, streak: FailureStreak, by: TestRun): TestSubscription {
  return {
    ...unacknowledged(sub),
    streak: null,
    quietFailures: 0,
    parentEdit: streak.grouped ? null : { ts: streak.threadTs, streak, recoveredBy: passMark(by) },
  };
}

function grow(streak: FailureStreak, run: TestRun, row: LedgerRow): FailureStreak {
  return {
    ...streak,
    failedRuns: streak.failedRuns + 1,
    lastRunId: run.id,
    lastFailedAt: new Date(Math.max(rowTime(row), Date.parse(streak.lastFailedAt ?? "") || 0)).toISOString(),
  };
}
