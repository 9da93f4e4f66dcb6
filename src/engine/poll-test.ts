import type { RejectedRun, TestRun } from "../decipher/types.ts";
import { pollErrorSentence } from "../messages/vendor-error-message.ts";
import type { FailureContext } from "../model/failure-context.ts";
import { isOverdue, type LedgerRow, overdueCount, plausibleTime, rowTime } from "../model/run-ledger.ts";
import type { TestSubscription } from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import { update } from "../slack-api/post-message.ts";
import { describeSlackFailure, retryLater, type SlackFailure } from "../slack-api/slack-errors.ts";
import { RECENT_WINDOW_MS } from "./baseline.ts";
import { calledFlakyToday, decideTestStep } from "./decide-test-step.ts";
import { ledgerTestStateFacts } from "./ledger-digest.ts";
import { runsInOutbox } from "./outbox.ts";
import type { PollContext } from "./poll-context.ts";
import {
  afterSlackFailure,
  type HeldFailure,
  noteQuarantined,
  type PollOutcome,
  pollFailed,
} from "./poll-outcome.ts";
import { readFailureContext } from "./read-failure-context.ts";
import { type RenderContext, renderTestStep } from "./render-test-step.ts";
import { richBlockGate } from "./rich-block-gate.ts";
import {
  readLateFailures,
  readRunWindow,
  readUnreadFailures,
  SINCE_MARGIN_MS,
  unreadUnion,
} from "./run-reader.ts";
import { ABANDONED_AFTER_MS } from "./run-window.ts";
import type { Change, TestStep } from "./test-step.ts";

/** The ledger as the engine sees it; the object keeps it in SQLite (src/objects/sql-run-ledger.ts). */
export type RunLedger = {
  recent(now: Date, windowMs: number): LedgerRow[];
  byIds(ids: readonly number[]): LedgerRow[];
  save(rows: readonly LedgerRow[]): void;
  /**
   * Stores the subscription's state as of these rows, with them, before a post: an object that
   * dies mid-post resumes from a streak that agrees with the fates it recorded.
   */
  checkpoint?(state: TestSubscription): Promise<void>;
  /** The failures before `beforeMs` back to the last pass, newest first, at most `limit`. */
  failingBefore?(beforeMs: number, limit: number): LedgerRow[];
};

/**
 * A day of rows, and before them the failures of a streak that began earlier, so status says
 * "failed 5 runs in a row" as the alert did, not the 4 of them within the day. Only as many as
 * make the test broken are needed, and a few more to count.
 */
function withOlderStreak(rows: readonly LedgerRow[], ledger: RunLedger, now: Date): LedgerRow[] {
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
    const reopen = run.status === "failed" && !toldAsFailure && before.fate !== "baseline";
    out.push({
      ...before,
      status: run.status,
      createdAt,
      trigger: run.triggeredBy ?? before.trigger,
      ...(reopen
        ? {
            fate: before.fate === "quarantined" ? "quarantined" : null,
            ts: null,
            parentTs: null,
            reason: null,
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

function merge(rows: readonly LedgerRow[], changed: readonly LedgerRow[]): LedgerRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of changed) byId.set(r.id, r);
  return [...byId.values()];
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
  let read: Awaited<ReturnType<typeof readRunWindow>>;
  let late: TestRun[] = [];
  let older: Awaited<ReturnType<typeof readUnreadFailures>> | null = null;
  try {
    const held = new Map(history.map((r) => [r.id, r]));
    // Runs left unread by a capped read may still be running: their failures are read on their
    // own until they are old enough to count as abandoned.
    const unread = sub.unreadSince ? now.getTime() - Date.parse(sub.unreadSince) < ABANDONED_AFTER_MS : false;
    const running = history.filter((r) => r.status === "running" && rowTime(r) >= since.getTime());
    read = await readRunWindow(
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
    if (watched.length > 0) late = await readLateFailures(deps.vendor, sub.testId, watched);
    if (sub.unreadFailures) older = await readUnreadFailures(deps.vendor, sub.testId, sub.unreadFailures);
  } catch (error) {
    return pollFailed(sub, pollErrorSentence(error), error, now);
  }

  const runs = new Map<number, TestRun>();
  for (const run of [...(older?.runs ?? []), ...read.runs, ...late]) runs.set(run.id, run);
  const known = new Map(history.map((r) => [r.id, r]));
  for (const r of ledger.byIds([...runs.keys()].filter((id) => !known.has(id)))) known.set(r.id, r);
  const fresh = rowsFromRead(
    known,
    [...runs.values()],
    [...read.rejected, ...(older?.rejected ?? [])],
    sub,
    now,
  );
  let rows = merge([...known.values()], fresh);
  // Rows are written once per poll each, with their fate when it is decided in the same poll,
  // and always before a post: what a post depends on is durable before Slack hears of it.
  const dirty = new Map(fresh.map((r) => [r.id, r]));
  const flush = () => {
    if (dirty.size === 0) return;
    ledger.save([...dirty.values()]);
    dirty.clear();
  };
  /** Before a post: the rows and the state they go with. */
  let checkpointed: TestSubscription = sub;
  const flushWithState = async () => {
    flush();
    if (next !== checkpointed && ledger.checkpoint) {
      await ledger.checkpoint(next);
      checkpointed = next;
    }
  };

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
  let next: TestSubscription = noteQuarantined(
    { ...sub, testName: read.test.name || sub.testName, unreadSince, unreadFailures },
    read.rejected.filter((r) => r.id === null || !known.has(r.id)),
    now,
  );
  // What a new failure means is read once, and only when one may open a new alert.
  const opening = rows.some((r) => r.status === "failed" && (r.fate === null || isOverdue(r, now)));
  let meaning: FailureContext | null = null;
  // The outage check's first look holds a new failure without telling it: no need to know its meaning yet.
  const overdue = rows.some((r) => isOverdue(r, now));
  const inOutbox = outbox.keys();
  const inPosts = runsInOutbox(inOutbox);
  const settling = rows.some((r) => r.status === "failed" && r.fate === null && inPosts.has(r.id));
  // A test called flaky today is never held: its failure is told in this poll, in its thread.
  const tellsNow = ctx.mode?.hold !== true || overdue || settling || calledFlakyToday(next, now);
  if (opening && tellsNow && !next.streak && !isSnoozed(next, now) && !next.muted && budget.has(3)) {
    const first = rows.find((r) => r.status === "failed" && r.fate === null);
    const run = first ? runs.get(first.id) : undefined;
    if (run) meaning = await readFailureContext(ctx, next, run);
  }

  // An overdue failure the channel may have held is told alone only with its word.
  const waitingOnChannel = new Set<number>();
  let group = ctx.mode?.group ?? null;
  if (ctx.claim && !ctx.mode?.told && !next.streak) {
    const overdueFailures = rows.filter(
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

  let posts = 0;
  let failure: SlackFailure | null = null;
  let held: HeldFailure | null = null;
  const outageRecoveries: string[] = [];
  const apply = (change: Change) => {
    for (const r of change.rows) dirty.set(r.id, r);
    if (change.rows.length > 0) rows = merge(rows, change.rows);
    const was = next.streak;
    next = change.sub;
    if (was?.grouped && next.streak === null) outageRecoveries.push(was.threadTs);
  };
  /** An owed edit failed in this poll: it is tried again at the next one, not over and over now. */
  let editRefused = false;
  const rendering: RenderContext = { test: read.test, appUrl: deps.config.decipherAppUrl, now, meaning };
  /** Edits a parent; one Slack refuses for now is owed to the next poll rather than dropped. */
  const edit = async (step: Extract<TestStep, { kind: "edit" }>) => {
    const message = renderTestStep(step, rendering);
    const result = await update(deps.slack, sub.channelId, step.ts, message, richBlockGate(deps, sub.teamId));
    if (result.ok || !retryLater(result.failure)) return apply(step.after);
    editRefused = true;
    apply({ ...step.after, sub: { ...step.after.sub, ...step.owed } });
  };
  for (let guard = 0; guard < 500; guard++) {
    const step: TestStep = decideTestStep({
      sub: next,
      rows,
      runs,
      test: read.test,
      meaning,
      appUrl: deps.config.decipherAppUrl,
      now,
      hold: ctx.mode?.hold === true,
      group,
      cycle: ctx.cycle ?? now.toISOString(),
      inOutbox: outbox.keys(),
      waitingOnChannel,
      retryOwedEdit: !editRefused,
    });
    apply(step.change);
    if (step.kind === "done") break;
    if (step.kind === "hold") {
      held = step.held;
      break;
    }
    if (step.kind === "edit") {
      // Out of budget, the edit stays owed to the next poll rather than dropped.
      if (!budget.has(1)) break;
      await edit(step);
      continue;
    }
    // A post, and room for the parent edit after it; short of that, only the edit.
    if (!budget.has(2)) {
      const last = decideTestStep({
        sub: next,
        rows: [],
        runs,
        test: read.test,
        meaning,
        appUrl: deps.config.decipherAppUrl,
        now,
        hold: false,
        group: null,
        cycle: ctx.cycle ?? now.toISOString(),
        retryOwedEdit: !editRefused,
      });
      if (last.kind === "edit" && budget.has(1)) await edit(last);
      break;
    }
    await flushWithState();
    const message = renderTestStep(step, rendering);
    const result = await outbox.send(step.key, message, step.threadTs);
    if (!result.ok) {
      failure = result.failure;
      break;
    }
    posts++;
    // Slack had it from an earlier decision (a lost answer): say what is true now, e.g. that
    // the failure it announced has passed since, or the failures read since that one reply
    // tells too. Their fates wait for the edit: an edit Slack puts off (or no budget for it)
    // is made by the next poll, which finds the same post by its key.
    if (result.earlier) {
      if (!budget.has(1)) break;
      const edited = await update(deps.slack, sub.channelId, result.ts, message);
      if (!edited.ok && retryLater(edited.failure)) {
        failure = edited.failure;
        break;
      }
    }
    apply(step.delivered(result.ts));
  }

  flush();
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
  if (!failure && (next.lastError || next.failingSince))
    next = { ...next, lastError: null, failingSince: null };
  return {
    next: changedOrNull(sub, next, now),
    posts,
    error: null,
    held,
    waitsOnChannel: waitingOnChannel.size > 0,
    outageRecoveries,
  };
}

/** The shown watermark is copied only now and then: a test running every minute must not cost a KV write a minute. */
const WATERMARK_COPY_MS = 30 * 60 * 1000;

/** The state to store, or null when nothing a reader would see changed: an idle poll writes nothing. */
function changedOrNull(
  before: TestSubscription,
  after: TestSubscription,
  now: Date,
): TestSubscription | null {
  const strip = (s: TestSubscription) =>
    JSON.stringify({ ...s, lastChangeAt: null, lastRunId: null, lastRunAt: null });
  const moved =
    after.lastRunId !== before.lastRunId &&
    (before.lastRunAt === null ||
      after.lastRunAt === null ||
      Date.parse(after.lastRunAt) - Date.parse(before.lastRunAt) > WATERMARK_COPY_MS);
  return strip(before) === strip(after) && !moved ? null : { ...after, lastChangeAt: now.toISOString() };
}
