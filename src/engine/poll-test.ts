import type { RejectedRun, TestRun } from "../decipher/types.ts";
import { pollErrorSentence } from "../messages/vendor-error-message.ts";
import type { FailureContext } from "../model/failure-context.ts";
import {
  isOverdue,
  type LedgerRow,
  overdueCount,
  plausibleTime,
  RERUN_PASSED,
  rowTime,
} from "../model/run-ledger.ts";
import type { TestSubscription } from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { describeSlackFailure } from "../slack-api/slack-errors.ts";
import { RECENT_WINDOW_MS } from "./baseline.ts";
import { ledgerTestStateFacts } from "./ledger-digest.ts";
import { runsInOutbox } from "./outbox.ts";
import type { OutageGroup, PollContext } from "./poll-context.ts";
import { afterSlackFailure, noteQuarantined, type PollOutcome, pollFailed } from "./poll-outcome.ts";
import { readFailureContext } from "./read-failure-context.ts";
import {
  readLateFailures,
  readRunWindow,
  readUnreadFailures,
  SINCE_MARGIN_MS,
  unreadUnion,
} from "./run-reader.ts";
import { ABANDONED_AFTER_MS } from "./run-window.ts";
import { merge, type RunLedger, TestStepExecutor } from "./test-step-executor.ts";
import { calledFlakyToday } from "./test-step-state.ts";

/**
 * A day of rows, and before them the failures of a streak that began earlier, so status says
 * "failed 5 runs in a row" as the alert did, not the 4 of them within the day. Only as many as
 * make the test broken are needed, and a few more to count.
 */
export function withOlderStreak(rows: readonly LedgerRow[], ledger: RunLedger, now: Date): LedgerRow[] {
  const older = ledger.failingBefore?.(now.getTime() - HISTORY_MS, OLDER_STREAK_ROWS) ?? [];
  const seen = new Set(rows.map((r) => r.id));
  return [...older.filter((r) => !seen.has(r.id)), ...rows];
}
const OLDER_STREAK_ROWS = 50;

/** Overdue failures asked about per poll (one internal call each); the rest wait for the next. */
const CLAIMS_PER_POLL = 5;

/** Rows a poll decides from: a day of history, plus every row still owed a fate. */
const HISTORY_MS = 24 * 60 * 60 * 1000;
/** How far before the subscription the first reads reach (the baseline read covered 70 minutes). */
const SUBSCRIBE_LAG_MS = 20 * 60 * 1000;
/** A running run is awaited this long; then it is watched for a late failure by a separate read. */
const RUNNING_WATCH_MS = 24 * 60 * 60 * 1000;

/**
 * Where a poll's read of the vendor starts: shortly before the newest settled run the ledger
 * holds (by plausible time only), but never after a run still running (its failure must fall
 * in the window), and never before the subscription when the ledger is empty.
 */
export function readSince(rows: readonly LedgerRow[], sub: TestSubscription, now: Date): Date {
  // A run the vendor lists a little late still falls in the first windows after subscribing.
  let newest = Date.parse(sub.createdAt) - SUBSCRIBE_LAG_MS;
  let running = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    if (!row.createdAt) continue;
    const t = Date.parse(row.createdAt);
    if (row.status === "running" && now.getTime() - t < ABANDONED_AFTER_MS) running = Math.min(running, t);
    else if (row.status !== "running") newest = Math.max(newest, t);
  }
  const anchor = Math.min(newest, running);
  return new Date((Number.isFinite(anchor) ? anchor : now.getTime()) - SINCE_MARGIN_MS);
}

/** The run is the open streak's latest failure, and its pass will be told now (nothing holds the thread quiet). */
function endsStreak(sub: TestSubscription, runId: number, now: Date): boolean {
  const streak = sub.streak;
  return (
    !!streak &&
    !streak.grouped &&
    streak.lastRunId === runId &&
    !sub.muted &&
    !sub.paused &&
    !isSnoozed(sub, now)
  );
}

/** The failed run a subscription found last, before any alert of its own: its pass is owed. */
function endsFailingAtSubscribe(sub: TestSubscription, before: LedgerRow): boolean {
  return before.fate === "baseline" && !sub.streak && sub.failingAtSubscribe?.lastRunId === before.id;
}

/**
 * The ledger rows this read changes: new runs, and runs whose status changed. A failure seen
 * for the first time gets no fate here; a run older than the subscription is `baseline`.
 */
export function rowsFromRead(
  known: ReadonlyMap<number, LedgerRow>,
  runs: readonly TestRun[],
  rejected: readonly RejectedRun[],
  sub: TestSubscription,
  now: Date,
): LedgerRow[] {
  const at = now.toISOString();
  // Everything this recent was in the baseline read: an unknown run older than that was not
  // news when the channel subscribed.
  const subscribedAt = Date.parse(sub.createdAt) - RECENT_WINDOW_MS;
  const out: LedgerRow[] = [];
  for (const run of runs) {
    const before = known.get(run.id);
    const createdAt = plausibleTime(run.createdAt, now);
    if (!before) {
      const old = createdAt !== null && Date.parse(createdAt) < subscribedAt && run.status !== "running";
      out.push({
        id: run.id,
        status: run.status,
        createdAt,
        firstSeen: at,
        trigger: run.triggeredBy ?? null,
        fate: old ? "baseline" : null,
        ts: null,
        parentTs: null,
        reason: null,
        decidedAt: old ? at : null,
      });
      continue;
    }
    if (before.status === run.status && before.createdAt === createdAt) continue;
    // A changed status reopens the question, unless the run was already told as a failure (a
    // pass told as a recovery that now reads failed has not been).
    const toldAsFailure =
      before.fate === "announced" ||
      before.fate === "threaded" ||
      before.fate === "grouped" ||
      before.fate === "counted";
    // A failure told, then rerun under its id and passed: the pass is a new fact to tell (the
    // streak it was part of ends with it), never left behind the failure's fate. Rerun again
    // and failed, it is not told twice: its fate is the reply that told the rerun, in the thread.
    // Only a pass that can end an open streak is told so; otherwise the failure's fate stays.
    // So is the rerun pass of the last failure the subscription found (src/model/failing-at-subscribe.ts).
    const rerunPassed =
      run.status === "passed" &&
      before.status !== "passed" &&
      ((toldAsFailure && endsStreak(sub, run.id, now)) || endsFailingAtSubscribe(sub, before));
    if (run.status === "failed" && before.reason === RERUN_PASSED && before.ts) {
      // The reply that told the rerun, or (a pass that ended nothing) the failure's own message.
      const fate = before.fate === "recovered" || before.parentTs ? "threaded" : "announced";
      out.push({ ...before, status: "failed", createdAt, fate });
      continue;
    }
    const toldBefore = toldAsFailure || before.reason === RERUN_PASSED;
    const reopen = (run.status === "failed" && !toldBefore && before.fate !== "baseline") || rerunPassed;
    out.push({
      ...before,
      status: run.status,
      createdAt,
      trigger: run.triggeredBy ?? before.trigger,
      ...(reopen
        ? {
            fate: before.fate === "quarantined" ? "quarantined" : null,
            // A rerun's pass keeps the failure's message until its own fate has one.
            ts: rerunPassed ? before.ts : null,
            parentTs: rerunPassed ? before.parentTs : null,
            reason: rerunPassed ? RERUN_PASSED : null,
            decidedAt: null,
          }
        : {}),
    });
  }
  for (const bad of rejected) {
    if (bad.id === null || known.has(bad.id) || out.some((r) => r.id === bad.id)) continue;
    out.push({
      id: bad.id,
      status: "unreadable",
      createdAt: null,
      firstSeen: at,
      trigger: null,
      fate: null,
      ts: null,
      parentTs: null,
      reason: `${bad.field}: ${bad.message}`.slice(0, 200),
      decidedAt: null,
    });
  }
  return out;
}

/** The watermark status shows: the newest settled run the ledger holds, by plausible time. */
function newestSettled(rows: readonly LedgerRow[]): { id: number; at: string | null } | null {
  let best: LedgerRow | null = null;
  for (const row of rows) {
    if (row.status === "running" || row.status === "unreadable") continue;
    if (!best || rowTime(row) > rowTime(best) || (rowTime(row) === rowTime(best) && row.id > best.id))
      best = row;
  }
  return best ? { id: best.id, at: best.createdAt } : null;
}

/**
 * One poll of a test subscription: read the vendor, bring the ledger up to date, then carry
 * out the decisions of `decideTestStep` one step at a time until it is done, holding, out of
 * budget, or Slack refuses. Every message goes through the outbox; a fate is recorded only
 * with the message that carries it.
 */
export async function pollTest(
  sub: TestSubscription,
  ctx: PollContext & { ledger: RunLedger },
): Promise<PollOutcome> {
  const { deps, now, budget, ledger, outbox } = ctx;
  const history = ledger.recent(now, HISTORY_MS);
  const since = readSince(history, sub, now);
  let vendorRead: VendorRead;
  try {
    vendorRead = await readTestRuns(sub, ctx, history, since);
  } catch (error) {
    return pollFailed(sub, pollErrorSentence(error), error, now);
  }
  const { read, late, older } = vendorRead;
  const runs = new Map<number, TestRun>();
  for (const run of [...(older?.runs ?? []), ...read.runs, ...late]) runs.set(run.id, run);
  const known = new Map(history.map((r) => [r.id, r]));
  const stamped = (id: number) => {
    const at = plausibleTime(runs.get(id)?.createdAt, now);
    return at === null ? null : Date.parse(at);
  };
  for (const r of ledger.byIds(
    [...runs.keys()].filter((id) => !known.has(id)),
    stamped,
  ))
    known.set(r.id, r);
  const fresh = rowsFromRead(
    known,
    [...runs.values()],
    [...read.rejected, ...(older?.rejected ?? [])],
    sub,
    now,
  );
  /** The rows this poll decides from: the ledger as this read leaves it. */
  const seen = merge([...known.values()], fresh);

  let next = stateAfterRead(sub, vendorRead, since, known, now);
  // What a new failure means is read once, and only when one may open a new alert.
  const opening = seen.some((r) => r.status === "failed" && (r.fate === null || isOverdue(r, now)));
  let meaning: FailureContext | null = null;
  // The outage check's first look holds a new failure without telling it: no need to know its meaning yet.
  const overdue = seen.some((r) => isOverdue(r, now));
  const inOutbox = outbox.keys();
  const inPosts = runsInOutbox(inOutbox);
  const settling = seen.some((r) => r.status === "failed" && r.fate === null && inPosts.has(r.id));
  // A test called flaky today is never held: its failure is told in this poll, in its thread.
  const tellsNow = ctx.mode?.hold !== true || overdue || settling || calledFlakyToday(next, now);
  const quiet = isSnoozed(next, now) || next.muted || next.paused;
  if (opening && tellsNow && !next.streak && !quiet && budget.has(3)) {
    const first = seen.find((r) => r.status === "failed" && r.fate === null);
    const run = first ? runs.get(first.id) : undefined;
    if (run) meaning = await readFailureContext(ctx, next, run);
  }

  const { waitingOnChannel, group } = await claimOverdue(ctx, next, seen, inPosts);

  const steps = new TestStepExecutor(ctx, sub, seen, fresh, next, {
    test: read.test,
    appUrl: deps.config.decipherAppUrl,
    now,
    meaning,
  });
  await steps.run({
    runs,
    hold: ctx.mode?.hold === true,
    group,
    cycle: ctx.cycle ?? now.toISOString(),
    waitingOnChannel,
  });
  const { rows, posts, failure, held, outageRecoveries } = steps;
  next = steps.next;
  const mark = newestSettled(rows);
  next = {
    ...next,
    lastRunId: mark?.id ?? next.lastRunId,
    lastRunAt: mark?.at ?? next.lastRunAt,
    overdue: overdueCount(rows, now),
    // Stored only when they change (a failure, a recovery, a new class): not with each pass.
    stateFacts: ledgerTestStateFacts(withOlderStreak(rows, ledger, now), next, now),
  };
  if (failure && failure.kind !== "deferred") {
    const message = describeSlackFailure(failure);
    // The same error again writes nothing, unless Slack said when to come back.
    const repeated = failure.kind !== "permanent" && sub.lastError?.message === message;
    if (!repeated || failure.retryAfterSeconds !== undefined) next = afterSlackFailure(next, failure, now);
    return {
      next: changedOrNull(sub, next, now),
      posts,
      error: failure.code,
      slackFailure: failure,
      held,
      waitsOnChannel: waitingOnChannel.size > 0,
      outageRecoveries,
    };
  }
  if (!failure && (next.lastError || next.erroringSince))
    next = { ...next, lastError: null, erroringSince: null };
  return {
    next: changedOrNull(sub, next, now),
    posts,
    error: null,
    held,
    waitsOnChannel: waitingOnChannel.size > 0,
    outageRecoveries,
  };
}

/** What one poll read of the vendor: its window, failures of runs watched since, older windows left unread. */
type VendorRead = {
  read: Awaited<ReturnType<typeof readRunWindow>>;
  late: TestRun[];
  older: Awaited<ReturnType<typeof readUnreadFailures>> | null;
};

async function readTestRuns(
  sub: TestSubscription,
  ctx: PollContext,
  history: readonly LedgerRow[],
  since: Date,
): Promise<VendorRead> {
  const { deps, now } = ctx;
  const held = new Map(history.map((r) => [r.id, r]));
  // Runs left unread by a capped read may still be running: their failures are read on their
  // own until they are old enough to count as abandoned.
  const unread = sub.unreadSince ? now.getTime() - Date.parse(sub.unreadSince) < ABANDONED_AFTER_MS : false;
  const running = history.filter((r) => r.status === "running" && rowTime(r) >= since.getTime());
  const read = await readRunWindow(
    deps.vendor,
    sub.testId,
    since,
    (run) => held.get(run.id)?.status === run.status,
    unread,
    running.length > 0 ? Math.min(...running.map(rowTime)) : null,
  );
  const watched = history
    .filter(
      (r) =>
        r.status === "running" &&
        rowTime(r) < since.getTime() &&
        now.getTime() - rowTime(r) < RUNNING_WATCH_MS,
    )
    .map((r) => ({ id: r.id, createdAt: new Date(rowTime(r)).toISOString() }));
  const late = watched.length > 0 ? await readLateFailures(deps.vendor, sub.testId, watched) : [];
  const older = sub.unreadFailures
    ? await readUnreadFailures(deps.vendor, sub.testId, sub.unreadFailures)
    : null;
  return { read, late, older };
}

/** The state as the read leaves it: the test's name, what is left unread, the runs skipped as unreadable. */
function stateAfterRead(
  sub: TestSubscription,
  { read, older }: VendorRead,
  since: Date,
  known: ReadonlyMap<number, LedgerRow>,
  now: Date,
): TestSubscription {
  // The unread runs are older than every run the capped read returned: they count as
  // abandoned an hour after the oldest of those.
  const oldestRead = Math.min(
    ...read.runs.map((r) => Date.parse(plausibleTime(r.createdAt, now) ?? "")).filter(Number.isFinite),
  );
  const unreadSince = read.truncated
    ? Number.isFinite(oldestRead)
      ? new Date(oldestRead).toISOString()
      : now.toISOString()
    : sub.unreadSince && now.getTime() - Date.parse(sub.unreadSince) < ABANDONED_AFTER_MS
      ? sub.unreadSince
      : null;
  // What this read left unread, and what is still unread of earlier windows: read over the next polls.
  const unreadFailures = unreadUnion(
    older ? older.rest : (sub.unreadFailures ?? null),
    read.truncated && Number.isFinite(oldestRead)
      ? { since: since.toISOString(), until: new Date(oldestRead).toISOString() }
      : null,
  );
  return noteQuarantined(
    { ...sub, testName: read.test.name || sub.testName, unreadSince, unreadFailures },
    read.rejected.filter((r) => r.id === null || !known.has(r.id)),
    now,
  );
}

/**
 * An overdue failure the channel may have held is told alone only with its word: the runs that
 * wait for the channel, and the outage message that named some of them.
 */
async function claimOverdue(
  ctx: PollContext,
  next: TestSubscription,
  seen: readonly LedgerRow[],
  inPosts: ReadonlyMap<number, string>,
): Promise<{ waitingOnChannel: Set<number>; group: OutageGroup | null }> {
  const { now } = ctx;
  const waitingOnChannel = new Set<number>();
  let group = ctx.mode?.group ?? null;
  if (ctx.claim && !ctx.mode?.told && !next.streak) {
    const overdueFailures = seen.filter(
      (r) => r.status === "failed" && r.fate === null && isOverdue(r, now) && !inPosts.has(r.id),
    );
    for (const r of overdueFailures.slice(0, CLAIMS_PER_POLL)) {
      // The channel unreachable: the run waits too (still counted overdue), never told twice.
      const word = await ctx.claim(r.id).catch(() => "wait" as const);
      if (word === "wait") waitingOnChannel.add(r.id);
      else if (word.ts === null) continue;
      else if (group === null || group.ts === word.ts)
        group = {
          ts: word.ts,
          runIds: [...(group?.runIds ?? []), r.id],
          passedNext: [...(group?.passedNext ?? []), ...(word.passedNext ? [r.id] : [])],
        };
      else waitingOnChannel.add(r.id);
    }
    for (const r of overdueFailures.slice(CLAIMS_PER_POLL)) waitingOnChannel.add(r.id);
  }
  return { waitingOnChannel, group };
}

/**
 * The state to store, or null when nothing a reader would see changed: an idle poll writes
 * nothing, and neither does a pass with nothing to tell. The watermark (`lastRunId`) moves
 * with the state, never on its own: on its own it would cost a row written and the channel's
 * index row for every run (issue #35), and the ledger already holds the run.
 */
function changedOrNull(
  before: TestSubscription,
  after: TestSubscription,
  now: Date,
): TestSubscription | null {
  const strip = (s: TestSubscription) =>
    JSON.stringify({ ...s, lastChangeAt: null, lastRunId: null, lastRunAt: null });
  return strip(before) === strip(after) ? null : { ...after, lastChangeAt: now.toISOString() };
}
