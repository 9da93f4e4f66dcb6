import type { TestRun } from "../decipher/types.ts";
import {
  byRowTime,
  type CountedReason,
  type Fate,
  isOverdue,
  type LedgerRow,
  RERUN_PASSED,
  rowTime,
} from "../model/run-ledger.ts";
import {
  type FailureStreak,
  type ResolvedTestOptions,
  resolveTestOptions,
  type TestSubscription,
  unacknowledged,
} from "../model/subscription.ts";
import { runsInOutbox } from "./outbox.ts";
import type { Change, TestPollInput, TestStep } from "./test-step.ts";

/**
 * What the steps of `decideTestStep` (src/engine/decide-test-step.ts, decide-test-edits.ts)
 * share: the look they decide in, the state they thread through it, and the records they make.
 */

/** The state so far in one decision, and the fates recorded on the way. */
export type Acc = { sub: TestSubscription; rows: LedgerRow[] };

/** A step to carry out, or the state to go on with. */
export type Next = { step: TestStep } | { acc: Acc };

/** What holds for the whole of one decision. */
export type Look = {
  input: TestPollInput;
  at: string;
  options: ResolvedTestOptions;
  groupIds: ReadonlySet<number>;
  /** The rows that need a fate, in time order. */
  pending: readonly LedgerRow[];
  /** The outbox key that names each failed run: Slack may hold (or holds) a post telling it. */
  namedBy: ReadonlyMap<number, string>;
};

export function lookOf(input: TestPollInput): Look {
  const byId = new Map(input.rows.map((r) => [r.id, r]));
  return {
    input,
    at: input.now.toISOString(),
    options: resolveTestOptions(input.sub.options),
    groupIds: new Set(input.group?.runIds ?? []),
    pending: input.rows.filter((row) => needsFate(row, input.now)).sort(byRowTime),
    namedBy: runsInOutbox(input.inOutbox, (id) => {
      const r = byId.get(id);
      return r?.status === "failed" && r.fate !== null;
    }),
  };
}

const needsFate = (row: LedgerRow, now: Date) =>
  row.fate === null || (row.fate === "quarantined" && row.status !== "unreadable") || isOverdue(row, now);

export const change = (acc: Acc): Change => ({ sub: acc.sub, rows: [...acc.rows] });
export const done = (acc: Acc): TestStep => ({ kind: "done", change: change(acc) });

export function fate(
  look: Look,
  row: LedgerRow,
  f: Fate,
  extra: { ts?: string | null; parentTs?: string | null; reason?: string | null } = {},
): LedgerRow {
  // A rerun's pass that ends nothing keeps the message that told the run's failure.
  const keeps = f === "quiet" && row.reason === RERUN_PASSED && row.status === "passed";
  return {
    ...row,
    fate: f,
    ts: extra.ts ?? (keeps ? row.ts : null),
    parentTs: extra.parentTs ?? (keeps ? row.parentTs : null),
    // A rerun's pass keeps saying so: the run was told as a failure before (src/engine/poll-test.ts).
    reason: extra.reason ?? (row.reason === RERUN_PASSED && row.status === "passed" ? RERUN_PASSED : null),
    decidedAt: look.at,
  };
}

/** Counted failures kept on the state: enough for a day of a test that runs every few minutes. */
const MAX_COUNTED = 50;

/** A failure counted, not posted; kept on the state too, for status, which reads the state's copy. */
export function counted(look: Look, acc: Acc, row: LedgerRow, reason: CountedReason): Acc {
  const list = [...(acc.sub.counted ?? []), { runId: row.id, reason, at: look.at }].slice(-MAX_COUNTED);
  return { sub: { ...acc.sub, counted: list }, rows: [...acc.rows, fate(look, row, "counted", { reason })] };
}

export const record = (acc: Acc, ...rows: LedgerRow[]): Acc => ({
  sub: acc.sub,
  rows: [...acc.rows, ...rows],
});

/** The run as the messages need it: the one read this poll, else what the ledger knows. */
export function runOf(input: TestPollInput, row: LedgerRow): TestRun {
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

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** The day's flaky thread, when the bot called the test flaky today (UTC day): its ts, else null. */
export const flakyThreadToday = (sub: TestSubscription, now: Date) =>
  sub.flakyThread?.day === utcDay(now) ? sub.flakyThread.ts : null;

/**
 * Called flaky today: its alert said its failures until the end of this UTC day go in its
 * thread, so every failure of the day keeps to that thread (unless `flaky:alert`). Such a failure is never held for the
 * channel's outage window: it neither counts toward an outage nor is named in one.
 */
export function calledFlakyToday(sub: TestSubscription, now: Date): boolean {
  return flakyThreadToday(sub, now) !== null && resolveTestOptions(sub.options).flaky !== "alert";
}

/** Whether `row` is of the subscription's `trigger:` (every run is, without one). */
export const triggered = (look: Look, row: LedgerRow | undefined): boolean =>
  !look.options.trigger || row?.trigger === look.options.trigger;

/** The row after `i` when it is a pass of the subscription's trigger, else null. */
export function passedNext(look: Look, i: number): LedgerRow | null {
  const next = look.pending[i + 1];
  return next?.status === "passed" && triggered(look, next) ? next : null;
}

/** The pass that ended a streak, as a parent keeps it. */
export const passMark = (run: TestRun) => ({ id: run.id, at: run.endTime ?? run.createdAt });

/**
 * The state once the pass `by` ended `streak`: nobody looking, no streak, and its parent owed
 * the edit to green (an outage message is the channel's to edit).
 */
export function endedStreak(sub: TestSubscription, streak: FailureStreak, by: TestRun): TestSubscription {
  return {
    ...unacknowledged(sub),
    streak: null,
    quietFailures: 0,
    // A streak opened since subscribing told its own recovery: the failing found then is over.
    failingAtSubscribe: null,
    parentEdit: streak.grouped ? null : { ts: streak.threadTs, streak, recoveredBy: passMark(by) },
  };
}

export function grow(streak: FailureStreak, run: TestRun, row: LedgerRow): FailureStreak {
  return {
    ...streak,
    failedRuns: streak.failedRuns + 1,
    lastRunId: run.id,
    lastFailedAt: new Date(Math.max(rowTime(row), Date.parse(streak.lastFailedAt ?? "") || 0)).toISOString(),
  };
}
