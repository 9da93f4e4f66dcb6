import type { TestRun } from "../decipher/types.ts";
import { FAILURES_PER_REPLY } from "../messages/streak-reply.ts";
import { classifiedThrough, testAlertEvidence } from "../model/alert-evidence.ts";
import { isOverdue, type LedgerRow, rowTime } from "../model/run-ledger.ts";
import { runRecord } from "../model/run-record.ts";
import {
  type FailureStreak,
  type FlakyThread,
  type TestSubscription,
  unacknowledged,
} from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { decidePass } from "./decide-pass.ts";
import { firstEdit, parentEdit, parentGoneStep, snoozeEnd } from "./decide-test-edits.ts";
import { routeFailure } from "./failure-route.ts";
import { runsKey } from "./outbox.ts";
import { HOLD_FOR_MS, type TestPollInput, type TestStep } from "./test-step.ts";
import {
  type Acc,
  calledFlakyToday,
  change,
  counted,
  done,
  endedStreak,
  fate,
  flakyThreadToday,
  grow,
  type Look,
  lookOf,
  passedNext,
  passMark,
  record,
  runOf,
  triggered,
  utcDay,
} from "./test-step-state.ts";

/**
 * Decides what one test subscription does next, from its ledger, its state and the time; no
 * I/O, and no Block Kit: its posts and edits say what they tell (src/engine/test-step.ts), and
 * src/engine/render-test-step.ts renders them. Called again after each step is carried out,
 * until it answers `done` or `hold`. Runs are taken in the ledger's time order (`byRowTime`)
 * only to tell a streak in order; which runs need telling comes from their fates, never from a
 * position or a watermark.
 */
export function decideTestStep(input: TestPollInput): TestStep {
  const look = lookOf(input);
  let acc: Acc = { sub: input.sub, rows: [] };
  if (!acc.sub.paused) {
    const again = parentGoneStep(acc);
    if ("step" in again) return again.step;
    acc = again.acc;
  }
  for (let i = 0; i < look.pending.length; i++) {
    const next = decideRow(look, acc, i);
    if ("step" in next) return next.step;
    if ("stop" in next) {
      acc = next.stop;
      break;
    }
    acc = next.acc;
    i += next.skip ?? 0;
  }
  // Paused, the channel refuses posts: edits and a snooze's end wait for the resume.
  if (acc.sub.paused) return done(acc);
  const ended = snoozeEnd(look, acc);
  if ("step" in ended) return ended.step;
  return firstEdit(look, ended.acc);
}

/** A row's decision: a step, the state to go on with (past `skip` more rows), or where the look stops. */
type RowNext = { step: TestStep } | { acc: Acc; skip?: number } | { stop: Acc };

function decideRow(look: Look, acc: Acc, i: number): RowNext {
  const row = look.pending[i] as LedgerRow;
  // A recovered parent is edited before the next run is told: the state holds one pending
  // edit, and the next streak's own edit (or a hold) would otherwise leave it saying failing.
  if (acc.sub.parentEdit?.recoveredBy && row.status !== "running" && !acc.sub.paused) {
    const edited = parentEdit(look, acc);
    if ("step" in edited) return edited;
    acc = edited.acc;
  }
  if (row.status === "running") return { acc };
  if (row.status === "unreadable") {
    const overdue = row.fate === null && isOverdue({ ...row, status: "failed" }, look.input.now);
    return { acc: overdue ? record(acc, fate(look, row, "quarantined", { reason: "unreadable run" })) : acc };
  }
  // `trigger:` leaves other runs out entirely: they neither alert nor recover.
  if (!triggered(look, row))
    return {
      acc:
        row.status === "failed"
          ? counted(look, acc, row, "trigger")
          : record(acc, fate(look, row, "quiet", { reason: "trigger" })),
    };
  if (row.status === "passed") return decidePass(look, acc, row);
  return decideFailure(look, acc, i);
}

function decideFailure(look: Look, acc: Acc, i: number): RowNext {
  const { input } = look;
  const row = look.pending[i] as LedgerRow;
  const sub = acc.sub;
  if (look.groupIds.has(row.id) && input.group) return joinOutage(look, acc, i, input.group.ts);
  if (sub.paused) return { acc: countQuiet(look, acc, row, "paused") };
  if (sub.muted || endedWhileMuted(look, sub, row)) return { acc: countQuiet(look, acc, row, "muted") };
  if (isSnoozed(sub, input.now) && sub.snooze) {
    const next = counted(look, acc, row, "snoozed");
    const snooze = { ...sub.snooze, missedFailures: sub.snooze.missedFailures + 1 };
    const streak = sub.streak ? { streak: grow(sub.streak, runOf(input, row), row) } : {};
    return { acc: { ...next, sub: { ...next.sub, snooze, ...streak } } };
  }
  if (sub.streak) return { step: streakReplyStep(look, acc, i, sub.streak) };
  return decideNewFailure(look, acc, i);
}

/** Named by the channel's outage message: the failure adopts it as its thread. */
function joinOutage(look: Look, acc: Acc, i: number, groupTs: string): RowNext {
  const { input } = look;
  const row = look.pending[i] as LedgerRow;
  const run = runOf(input, row);
  const pass = passedNext(look, i);
  const passedThere = pass && input.group?.passedNext?.includes(run.id) ? pass : null;
  const named = { heldFor: null, quietFailures: 0, namedByOutage: groupTs };
  if (passedThere) {
    // Named "then passed on the next run": that pass is told by the outage message, once.
    const rows = [
      fate(look, row, "grouped", { ts: groupTs }),
      fate(look, passedThere, "recovered", { ts: groupTs }),
    ];
    return { acc: { sub: { ...acc.sub, streak: null, ...named }, rows: [...acc.rows, ...rows] }, skip: 1 };
  }
  const opened: FailureStreak = {
    threadTs: groupTs,
    failedRuns: 1,
    firstRunId: run.id,
    lastRunId: run.id,
    firstRun: runRecord(run),
    lastFailedAt: new Date(rowTime(row)).toISOString(),
    grouped: true,
  };
  const sub = { ...unacknowledged(acc.sub), streak: opened, ...named };
  return { acc: { sub, rows: [...acc.rows, fate(look, row, "grouped", { ts: groupTs })] } };
}

/**
 * A failure that ended before the Unmute, read only now, happened while muted: counted, as
 * the Unmute said, not posted, nor told in the reply of a failure read with it.
 */
function endedWhileMuted(look: Look, sub: TestSubscription, row: LedgerRow): boolean {
  // Only a run read in this poll says when it ended (the ledger keeps when it began): one
  // that is not read again (its post refused for now) is told rather than guessed muted.
  const ended = Date.parse(look.input.runs.get(row.id)?.endTime ?? "");
  return !!sub.unmutedAt && Number.isFinite(ended) && ended < Date.parse(sub.unmutedAt);
}

/** Muted, or paused while Slack refuses the channel: counted, and the streak goes on unposted. */
function countQuiet(look: Look, acc: Acc, row: LedgerRow, reason: "muted" | "paused"): Acc {
  const next = counted(look, acc, row, reason);
  const streak = next.sub.streak;
  if (!streak) return next;
  // The streak goes on, unposted: an alert unmuted later says how long the test has been red.
  const grown = grow(streak, runOf(look.input, row), row);
  // Read after the Unmute, the live alert says it now ("failing for 2 runs").
  const edit = !next.sub.muted && !grown.grouped ? { parentEdit: { ts: grown.threadTs, streak: grown } } : {};
  return { ...next, sub: { ...next.sub, streak: grown, ...edit } };
}

/**
 * The rows after `i` that one reply tells with it: the further failures of its streak, up to
 * the pass that ends them. Never a row that is the outage's to tell, or that has an intent of
 * its own in the outbox (Slack may hold its post already).
 */
function readWith(look: Look, sub: TestSubscription, i: number, late: boolean) {
  const failures: LedgerRow[] = [];
  const head = look.namedBy.get((look.pending[i] as LedgerRow).id);
  for (const r of look.pending.slice(i + 1)) {
    if (r.status === "running") continue;
    if (!triggered(look, r)) break;
    // A run another post may hold is told through that post's key, not in this reply.
    if (look.groupIds.has(r.id) || (look.namedBy.has(r.id) && look.namedBy.get(r.id) !== head)) break;
    if (r.status === "failed" && endedWhileMuted(look, sub, r)) break;
    if (
      r.status === "failed" &&
      isOverdue(r, look.input.now) === late &&
      failures.length + 1 < FAILURES_PER_REPLY
    )
      failures.push(r);
    else if (r.status === "passed" && !look.input.inOutbox?.has(`recovery:${r.id}`))
      return { failures, pass: r };
    else break;
  }
  return { failures, pass: null };
}

/** The streak's next failures read in this same look, and the pass that ends them, are one reply. */
function streakReplyStep(look: Look, acc: Acc, i: number, streak: FailureStreak): TestStep {
  const { input } = look;
  const row = look.pending[i] as LedgerRow;
  const late = isOverdue(row, input.now);
  const read = readWith(look, acc.sub, i, late);
  const failures = [row, ...read.failures];
  const grown = failures.reduce((s, r) => grow(s, runOf(input, r), r), streak);
  const recovered = read.pass ? runOf(input, read.pass) : null;
  const told = (ts: string) =>
    failures.map((r) => fate(look, r, "threaded", { ts, parentTs: streak.threadTs }));
  return {
    kind: "post",
    change: change(acc),
    // A reply Slack may hold already keeps its key: found, it is edited to say these runs.
    key: look.namedBy.get(row.id) ?? runsKey(failures.map((r) => r.id)),
    message: {
      kind: "streak-reply",
      runs: failures.map((r) => runOf(input, r)),
      failedRuns: grown.failedRuns,
      recoveredBy: recovered,
      named: streak.grouped === true,
    },
    ...(late ? { lateSince: row.firstSeen } : {}),
    threadTs: streak.threadTs,
    delivered: (ts) =>
      read.pass && recovered
        ? {
            sub: endedStreak(acc.sub, grown, recovered),
            rows: [
              ...acc.rows,
              ...told(ts),
              fate(look, read.pass, "recovered", { ts, parentTs: streak.threadTs }),
            ],
          }
        : {
            sub: {
              ...acc.sub,
              streak: grown,
              parentEdit: grown.grouped ? null : { ts: grown.threadTs, streak: grown },
            },
            rows: [...acc.rows, ...told(ts)],
          },
  };
}

/** A failure with no streak open: held for the outage window, counted, or told where its route says. */
function decideNewFailure(look: Look, acc: Acc, i: number): RowNext {
  const { input, options } = look;
  const { now } = input;
  const row = look.pending[i] as LedgerRow;
  const run = runOf(input, row);
  if (input.waitingOnChannel?.has(run.id)) return { step: done(acc) };
  const sub = acc.sub;
  const keepsToItsThread = calledFlakyToday(sub, now);
  const quiet = sub.quietFailures ?? 0;
  const late = isOverdue(row, now);
  // Any other failure that would be told now is held for the outage window, one that only
  // now looks flaky too (it would open the day's "is flaky" alert): several tests failing
  // together are one outage message, not several alerts. A failure `after:` still waits
  // for is counted without one. A failure whose own alert Slack may hold is settled through
  // the outbox (looked up, never sent blindly), not left waiting for an outage decision.
  const mayHold = !keepsToItsThread && quiet + 1 >= options.after && !late && !look.namedBy.has(run.id);
  // The channel's call to tell what it decided tells only that. A later failure read with it
  // (failed, passed, failed again) waits for the next poll, which holds it for the window: it
  // joins an outage still open instead of alerting alone beside it.
  if (mayHold && input.group && !input.hold) return { stop: acc };
  if (mayHold && input.hold) return { step: holdStep(look, acc, i, run) };
  const cycle = input.cycle ?? look.at;
  const heldElsewhere =
    sub.heldFor && sub.heldFor.cycle !== cycle && Date.parse(sub.heldFor.until) > now.getTime();
  if (mayHold && heldElsewhere) return { step: done(acc) };
  const route = routeFailure({
    options,
    kind: input.meaning?.classification.kind ?? null,
    calledFlakyToday: keepsToItsThread,
    quietFailures: quiet,
  });
  switch (route) {
    case "digest": {
      const next = counted(look, acc, row, "flaky-digest");
      return { acc: { ...next, sub: { ...next.sub, heldFor: null } } };
    }
    case "wait": {
      const next = counted(look, acc, row, "after");
      return { acc: { ...next, sub: { ...next.sub, quietFailures: quiet + 1 } } };
    }
    case "thread":
      return { step: flakyStep(look, acc, row, run, late) };
    case "alert":
      return { step: newAlertStep(look, acc, i, run, late) };
  }
}

/** Recorded, so an overlapping cycle leaves this failure to the cycle deciding the outage. */
function holdStep(look: Look, acc: Acc, i: number, run: TestRun): TestStep {
  const { input } = look;
  const until = new Date(input.now.getTime() + HOLD_FOR_MS).toISOString();
  const sub = { ...acc.sub, heldFor: { cycle: input.cycle ?? look.at, until } };
  return {
    kind: "hold",
    change: { sub, rows: [...acc.rows] },
    held: {
      testId: sub.testId,
      testName: input.test.name || sub.testName,
      runId: run.id,
      summary: run.summary?.oneLineSummary ?? null,
      mention: sub.options?.mention ?? null,
      ...(passedNext(look, i) ? { passedNext: true } : {}),
    },
  };
}

/** What a post says of this run is of its own moment, not of later runs read with it. */
const classifiedAt = (input: TestPollInput, run: TestRun) =>
  input.meaning ? classifiedThrough(input.meaning, run.id, input.now) : undefined;

/** A flaky test's failure: the day's "is flaky" alert, or a reply in its thread once it is open. */
function flakyStep(look: Look, acc: Acc, row: LedgerRow, run: TestRun, late: boolean): TestStep {
  const { input } = look;
  const { now } = input;
  const through = classifiedAt(input, run);
  const flakyOpen = flakyThreadToday(acc.sub, now);
  // A test called flaky today keeps its failures in the day's thread, whatever the next look says.
  const opened: FlakyThread = {
    ts: "",
    day: utcDay(now),
    firstRun: runRecord(run),
    // Of run #N, as its card says ("At run #N"): the strip ends with it, and so does the class.
    evidence: testAlertEvidence(input.meaning, run.id, through),
  };
  // A new "is flaky" alert is a new alert: nobody is looking at it yet.
  const base = flakyOpen ? acc.sub : unacknowledged(acc.sub);
  return {
    kind: "post",
    change: change(acc),
    key: look.namedBy.get(run.id) ?? runsKey([run.id]),
    message: flakyOpen
      ? { kind: "flaky-reply", run, through }
      : { kind: "flaky-alert", sub: base, flaky: opened },
    ...(late ? { lateSince: row.firstSeen } : {}),
    ...(flakyOpen ? { threadTs: flakyOpen } : {}),
    delivered: (ts) => ({
      sub: { ...base, heldFor: null, ...(flakyOpen ? {} : { flakyThread: { ...opened, ts } }) },
      rows: [
        ...acc.rows,
        flakyOpen
          ? fate(look, row, "threaded", { ts, parentTs: flakyOpen })
          : fate(look, row, "announced", { ts }),
      ],
    }),
  };
}

/** A new alert, opening a streak; with the pass right after it, one green message true as posted. */
function newAlertStep(look: Look, acc: Acc, i: number, run: TestRun, late: boolean): TestStep {
  const { input } = look;
  const row = look.pending[i] as LedgerRow;
  const through = classifiedAt(input, run);
  const pass = passedNext(look, i);
  const opening: FailureStreak = {
    threadTs: "",
    // Counted from the test's first failure in a row, as its class counts them ("failed 6 runs
    // in a row"), so its replies and its recovery say the same count.
    failedRuns: Math.max((acc.sub.quietFailures ?? 0) + 1, through?.trailingFailures ?? 0),
    firstRunId: run.id,
    lastRunId: run.id,
    firstRun: runRecord(run),
    lastFailedAt: new Date(rowTime(row)).toISOString(),
    evidence: testAlertEvidence(input.meaning, run.id, through),
  };
  const recovered = pass ? runOf(input, pass) : null;
  // A new alert starts with nobody looking: an acknowledgement was for an earlier one.
  const fresh = unacknowledged(acc.sub);
  return {
    kind: "post",
    change: change(acc),
    key: look.namedBy.get(run.id) ?? runsKey([run.id]),
    // The streak's first post is the one that pings; edits and replies never do.
    message: {
      kind: "failure-alert",
      sub: fresh,
      streak: opening,
      recoveredBy: recovered,
      ping: true,
      passedNext: !!pass,
    },
    ...(late ? { lateSince: row.firstSeen } : {}),
    delivered: (ts) => ({
      sub: {
        ...fresh,
        streak: recovered ? null : { ...opening, threadTs: ts },
        // Posted green: the last alert of the test, and the one a snooze would show on.
        ...(recovered
          ? {
              recoveredParent: { ts, streak: { ...opening, threadTs: ts }, recoveredBy: passMark(recovered) },
            }
          : {}),
        quietFailures: 0,
        heldFor: null,
      },
      rows: [
        ...acc.rows,
        fate(look, row, "announced", { ts }),
        ...(pass ? [fate(look, pass, "recovered", { ts })] : []),
      ],
    }),
  };
}
