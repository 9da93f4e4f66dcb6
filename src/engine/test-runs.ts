import { failedRunThreadReply, recoveryThreadReply } from "../messages/failed-run-card.ts";
import { flakyThreadParent, flakyThreadReply, withMeaning } from "../messages/failure-meaning.ts";
import type { SlackMessage } from "../messages/limits.ts";
import { pollErrorSentence } from "../messages/vendor-error-message.ts";
import type { FailureContext } from "../model/failure-context.ts";
import type { FailureStreak, PendingRun, TestOptions, TestSubscription } from "../model/subscription.ts";
import { post, update } from "../slack-api/post-message.ts";
import { describeSlackFailure, type SlackFailure } from "../slack-api/slack-errors.ts";
import type { TestRun } from "../vendor/types.ts";
import { testParent } from "./alert-parents.ts";
import { isSnoozed } from "./apply-triage.ts";
import type { PollContext } from "./poll-context.ts";
import {
  afterSlackFailure,
  type HeldFailure,
  noteQuarantined,
  noteUnknownOutcome,
  type PollOutcome,
  pollFailed,
  sameState,
  unchanged,
} from "./poll-outcome.ts";
import { readFailureContext } from "./read-failure-context.ts";
import { richBlockGate } from "./rich-block-gate.ts";
import { passable, type RunWindow, readLateFailures, readRunWindow } from "./run-reader.ts";
import { advanceWatermark, isSettled } from "./run-window.ts";

/**
 * Passed runs need no post, so moving the watermark over them is stored only now and then:
 * a test that runs every minute would otherwise cost 1,440 KV writes a day.
 */
const LAZY_ADVANCE_MS = 30 * 60 * 1000;
const LAZY_ADVANCE_RUNS = 25;
/** Runs passed while still running that are watched for a late failure: few, and not for long. */
export const MAX_PENDING = 10;
export const PENDING_FOR_MS = 24 * 60 * 60 * 1000;
/** Remembered ids above the watermark; the window they live in is bounded by time anyway. */
const MAX_HANDLED = 500;

const runKey = (run: TestRun) => `run:${run.id}`;

/** The pending list after the watermark moved: runs it passed while running join, old ones leave. */
function nextPending(
  sub: TestSubscription,
  passed: TestRun[],
  announced: Set<number>,
  now: Date,
): PendingRun[] {
  const byId = new Map((sub.pendingRuns ?? []).map((p) => [p.id, p]));
  for (const run of passed)
    if (run.status === "running") byId.set(run.id, { id: run.id, createdAt: run.createdAt });
  return [...byId.values()]
    .filter((p) => !announced.has(p.id) && now.getTime() - Date.parse(p.createdAt) < PENDING_FOR_MS)
    .sort((a, b) => b.id - a.id)
    .slice(0, MAX_PENDING);
}

/**
 * Announces each run that reached `failed` after the baseline exactly once, threads further
 * consecutive failures under the first alert (whose parent keeps the first failure and says
 * how long the test has been red), and replies once when a newer run passes. The watermark
 * moves past a run only after the post it needed succeeded, or its outcome became unknown.
 */
export async function pollTestSubscription(sub: TestSubscription, ctx: PollContext): Promise<PollOutcome> {
  const { deps, now, journal, budget } = ctx;
  let window: RunWindow;
  let late: TestRun[];
  try {
    window = await readRunWindow(deps.vendor, sub);
    late = await readLateFailures(deps.vendor, sub);
  } catch (error) {
    return pollFailed(sub, pollErrorSentence(error), error, now);
  }

  const { test } = window;
  const appUrl = deps.config.decipherAppUrl;
  const above = window.runs.filter((run) => run.id > sub.lastRunId);
  const candidates = [...above, ...late.filter((run) => !above.some((r) => r.id === run.id))].sort(
    (a, b) => a.id - b.id,
  );
  const handled = new Set(sub.handledRunIds);
  const announcedLate = new Set<number>();
  let streak: FailureStreak | null = sub.streak;
  let next: TestSubscription = noteQuarantined(sub, window.rejected, now);
  let posts = 0;
  let failure: SlackFailure | null = null;
  let stoppedAt: number | null = null;

  /** The parent alert to re-render after this poll: edited once, after the replies. */
  let parentEdit: { ts: string; streak: FailureStreak; recoveredBy?: TestRun } | null = null;

  const options = testOptions(sub);
  let quiet = sub.quietFailures ?? 0;
  let held: HeldFailure | null = null;
  let meaningRead: FailureContext | null | undefined;

  for (const run of candidates) {
    if (handled.has(run.id) || !isSettled(run, now) || run.status === "running") continue;
    // `trigger:` leaves out other runs entirely (manual runs, say): they neither alert nor recover.
    if (options.trigger && run.triggeredBy !== options.trigger) {
      handled.add(run.id);
      continue;
    }
    if (run.status === "passed") quiet = 0;
    const recovers = run.status === "passed" && streak !== null && run.id > streak.lastRunId;
    if (run.status === "passed" && !recovers) continue;
    if (run.status === "failed" && streak === null) {
      // `after:<n>`: the first n−1 failures in a row are counted, not announced.
      if (quiet + 1 < options.after) {
        quiet++;
        handled.add(run.id);
        continue;
      }
      // A new failure in a cycle that may be an outage waits for the cycle to decide.
      if (ctx.mode?.hold && !isSnoozed(next, now)) {
        held = {
          testId: sub.testId,
          testName: test.name || sub.testName,
          runId: run.id,
          summary: run.summary?.oneLineSummary ?? null,
          mention: sub.options?.mention ?? null,
        };
        stoppedAt = run.id;
        break;
      }
      const groupTs = ctx.mode?.groupTs;
      if (groupTs) {
        // The outage message already names this failure: its thread becomes this test's.
        handled.add(run.id);
        quiet = 0;
        streak = {
          threadTs: groupTs,
          failedRuns: 1,
          firstRunId: run.id,
          lastRunId: run.id,
          firstRun: run,
          lastFailedAt: run.createdAt,
          grouped: true,
        };
        continue;
      }
      if (ctx.mode?.groupUnknown) {
        // The outage message naming this failure may be in the channel (Slack did not answer):
        // never announced again, alone or in another message; status shows it.
        handled.add(run.id);
        quiet = 0;
        next = noteUnknownOutcome(next, `run #${run.id}`, now);
        continue;
      }
    }
    if (isSnoozed(next, now) && next.snooze) {
      // Snoozed: nothing is posted. Failures are counted for the summary; a pass ends it quietly.
      handled.add(run.id);
      if (run.status === "failed") {
        next = { ...next, snooze: { ...next.snooze, missedFailures: next.snooze.missedFailures + 1 } };
        if (streak)
          streak = {
            ...streak,
            failedRuns: streak.failedRuns + 1,
            lastRunId: Math.max(streak.lastRunId, run.id),
            lastFailedAt: run.createdAt,
          };
      } else if (streak) {
        parentEdit = { ts: streak.threadTs, streak, recoveredBy: run };
        streak = null;
        next = { ...next, snooze: null };
      }
      continue;
    }
    // A post and, at the end, one parent edit.
    if (!budget.has(2)) {
      stoppedAt = run.id;
      break;
    }
    let meaning: FailureContext | null = null;
    let flakyDay: string | null = null;
    if (run.status === "failed" && streak === null) {
      // One read of the history per poll: a backlog of failures shares it.
      if (meaningRead === undefined) meaningRead = await readFailureContext(ctx, next, run);
      meaning = meaningRead;
      if (meaning?.classification.kind === "flaky" && (options.flaky ?? "thread") !== "alert") {
        if (options.flaky === "digest") {
          // Counted by the digest from the run list; nothing is posted.
          handled.add(run.id);
          quiet = 0;
          continue;
        }
        flakyDay = now.toISOString().slice(0, 10);
      }
    }
    let message: SlackMessage;
    let threadTs: string | undefined;
    if (flakyDay !== null) {
      const open = next.flakyThread?.day === flakyDay ? next.flakyThread.ts : undefined;
      message = open
        ? flakyThreadReply(test, run, meaning, appUrl)
        : flakyThreadParent(test, run, meaning as FailureContext, appUrl);
      threadTs = open;
    } else if (run.status === "failed") {
      const failedRuns = streak ? streak.failedRuns + 1 : quiet + 1;
      if (streak) message = failedRunThreadReply({ test, run, failedRuns, appUrl, now });
      else {
        const opening: FailureStreak = {
          threadTs: "",
          failedRuns,
          firstRunId: run.id,
          lastRunId: run.id,
          firstRun: run,
          lastFailedAt: run.createdAt,
        };
        const parent = testParent(next, opening, {
          test,
          appUrl,
          now,
          ...(meaning ? { recentRuns: meaning.history } : {}),
          ping: true,
        }) as SlackMessage;
        message = withMeaning(parent, meaning, appUrl, now, false);
      }
      threadTs = streak?.threadTs;
    } else {
      message = recoveryThreadReply({ test, run, failedRuns: streak?.failedRuns ?? 0, appUrl, now });
      threadTs = streak?.threadTs;
    }
    await journal.intend(runKey(run));
    const result = await post(deps.slack, sub.channelId, message, threadTs, richBlockGate(deps, sub.teamId));
    if (!result.ok && result.failure.kind !== "unknown") {
      await journal.cancel();
      failure = result.failure;
      stoppedAt = run.id;
      break;
    }
    await journal.done(runKey(run));
    handled.add(run.id);
    if (run.id <= sub.lastRunId) announcedLate.add(run.id);
    if (!result.ok) {
      // Slack may have posted it: never again. Without its ts a first failure has no thread.
      next = noteUnknownOutcome(next, `run #${run.id}`, now);
      if (run.status === "passed") streak = null;
      else if (streak)
        streak = {
          ...streak,
          failedRuns: streak.failedRuns + 1,
          lastRunId: Math.max(streak.lastRunId, run.id),
        };
      continue;
    }
    posts++;
    if (flakyDay !== null) {
      // A flaky failure opens no streak: the next one goes to the day's thread, not a new alert.
      quiet = 0;
      if (!threadTs) next = { ...next, flakyThread: { ts: result.ts, day: flakyDay } };
      continue;
    }
    if (run.status === "failed") {
      if (streak) {
        streak = {
          ...streak,
          failedRuns: streak.failedRuns + 1,
          lastRunId: Math.max(streak.lastRunId, run.id),
          lastFailedAt: run.createdAt,
        };
        parentEdit = { ts: streak.threadTs, streak };
      } else {
        streak = {
          threadTs: result.ts,
          failedRuns: quiet + 1,
          firstRunId: run.id,
          lastRunId: run.id,
          firstRun: run,
          lastFailedAt: run.createdAt,
        };
        quiet = 0;
      }
    } else if (streak) {
      // The parent turns green too, still showing the failure it announced.
      parentEdit = { ts: streak.threadTs, streak, recoveredBy: run };
      streak = null;
    }
  }
  const snooze = next.snooze;
  if (snooze && !isSnoozed(next, now)) {
    // The snooze ran out with the test still red: one message sums up what it hid.
    if (snooze.missedFailures > 0 && streak && budget.has(2)) {
      const text = `:zzz: Snooze by <@${snooze.by}> ended: ${test.name || `Test ${test.id}`} failed ${snooze.missedFailures} more time${snooze.missedFailures === 1 ? "" : "s"} while snoozed, and is still failing.`;
      const summary = await post(deps.slack, sub.channelId, { text, blocks: [] }, streak.threadTs);
      if (summary.ok) posts++;
    }
    next = { ...next, snooze: null };
  }
  if (parentEdit && budget.has(1)) {
    // Still the same streak: the parent shows its latest count.
    const shown = !parentEdit.recoveredBy && streak?.threadTs === parentEdit.ts ? streak : parentEdit.streak;
    const parent = testParent(next, shown, {
      test,
      appUrl,
      now,
      recoveredBy: parentEdit.recoveredBy ?? null,
    });
    // A failed edit costs only the parent's status line; the replies are what matter.
    if (parent) await update(deps.slack, sub.channelId, parentEdit.ts, parent);
  }

  // The watermark never passes a run whose post failed: it is retried next cycle.
  const readable = passable(window, above, now);
  const settledRange =
    stoppedAt === null ? readable : readable.filter((run) => run.id < (stoppedAt as number));
  const mark = advanceWatermark({ id: sub.lastRunId, at: sub.lastRunAt }, settledRange, now);
  const passedOver = settledRange.filter((run) => run.id > sub.lastRunId && run.id <= mark.id);
  const at = now.toISOString();
  const pendingRuns = nextPending(sub, passedOver, announcedLate, now);
  next = {
    ...next,
    testName: test.name || sub.testName,
    lastRunId: mark.id,
    lastRunAt: mark.at,
    handledRunIds: [...handled]
      .filter((id) => id > mark.id)
      .sort((a, b) => a - b)
      .slice(-MAX_HANDLED),
    streak,
    pendingRuns,
    quietFailures: quiet,
    lastError: null,
    failingSince: null,
    lastChangeAt: at,
  };

  if (failure) {
    if (failure.kind === "deferred") return { next: posts > 0 ? next : null, posts, error: null };
    const message = describeSlackFailure(failure);
    // Nothing new happened and Slack says what it said last time: no write.
    if (
      posts === 0 &&
      failure.kind !== "permanent" &&
      sub.lastError?.message === message &&
      sameState(next, sub)
    )
      return { ...unchanged(), error: failure.code, slackFailure: failure };
    return { next: afterSlackFailure(next, failure, now), posts, error: failure.code, slackFailure: failure };
  }
  if (held) {
    // Held for the cycle's outage check: nothing is decided yet, so nothing but posts is stored.
    const keep = { ...next, lastError: sub.lastError, failingSince: sub.failingSince ?? null };
    return posts > 0 ? { next: keep, posts, error: null, held } : { ...unchanged(), held };
  }
  const changed =
    posts > 0 ||
    next.unknownOutcomes !== sub.unknownOutcomes ||
    next.snooze !== sub.snooze ||
    next.flakyThread !== sub.flakyThread ||
    quiet !== (sub.quietFailures ?? 0) ||
    next.quarantined !== sub.quarantined ||
    JSON.stringify(pendingRuns) !== JSON.stringify(sub.pendingRuns ?? []) ||
    streak !== sub.streak;
  if (changed) return { next, posts, error: null, held };

  const moved = mark.id !== sub.lastRunId;
  const lazyDue =
    moved &&
    (sub.lastRunAt === null ||
      Date.parse(mark.at ?? "") - Date.parse(sub.lastRunAt) > LAZY_ADVANCE_MS ||
      candidates.length > LAZY_ADVANCE_RUNS);
  return lazyDue || sub.lastError !== null || sub.failingSince
    ? { next, posts: 0, error: null, held }
    : { ...unchanged(), held };
}

/** The options of a subscription, with the defaults for those it does not set. */
export function testOptions(sub: TestSubscription): Required<Pick<TestOptions, "after">> & TestOptions {
  return { ...sub.options, after: Math.max(1, sub.options?.after ?? 1) };
}
