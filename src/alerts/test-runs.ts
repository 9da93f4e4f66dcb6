import { failedRunAlert, failedRunReply, recoveryReply } from "../slack/blocks/index.ts";
import type { PendingRun, Subscription, TestSubscription } from "../state/subscription-types.ts";
import type { VendorClient } from "../vendor/client.ts";
import type { TestInfo, TestRun } from "../vendor/types.ts";
import {
  afterSlackFailure,
  describeVendorFailure,
  type PollOutcome,
  unchanged,
  withError,
} from "./outcome.ts";
import type { PollContext } from "./poll-context.ts";
import { post, update } from "./slack-post.ts";

const PAGE_SIZE = 50;
const MAX_PAGES = 4;
/** Slack between the vendor's `createdAt` and whatever time `since` filters on. */
const SINCE_MARGIN_MS = 10 * 60 * 1000;
/** A run still `running` after a day is dropped rather than watched forever. */
const PENDING_MAX_AGE_MS = 24 * 60 * 60 * 1000;

type RecentRuns = { test: TestInfo; runs: TestRun[] };

/**
 * Runs since shortly before the newest one already seen (or the oldest still running).
 * Filtering by time, not by position, keeps this correct whatever order the API lists runs
 * in, and an idle poll is one request.
 */
async function fetchRecentRuns(vendor: VendorClient, sub: TestSubscription): Promise<RecentRuns> {
  const anchors = [sub.lastRunAt, ...sub.pendingRuns.map((p) => p.createdAt)]
    .map((at) => (at ? Date.parse(at) : Number.NaN))
    .filter((t) => Number.isFinite(t));
  const since = anchors.length > 0 ? new Date(Math.min(...anchors) - SINCE_MARGIN_MS) : undefined;
  const runs: TestRun[] = [];
  let test: TestInfo | undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await vendor.listTestRuns(sub.testId, {
      status: "all",
      limit: PAGE_SIZE,
      ...(since ? { since } : {}),
      ...(cursor ? { cursor } : {}),
    });
    test = res.test;
    runs.push(...res.data);
    // Without a time anchor (a test that had no runs yet), the first page is enough.
    if (!since || !res.hasMore || !res.nextCursor) break;
    cursor = res.nextCursor;
  }
  return { test: test as TestInfo, runs };
}

/** Runs to look at, oldest first: new ones and the pending ones that have an answer now. */
function runsToProcess(sub: TestSubscription, runs: TestRun[]): TestRun[] {
  const pending = new Set(sub.pendingRuns.map((p) => p.id));
  const unique = new Map<number, TestRun>();
  for (const run of runs) {
    if (run.id > sub.lastRunId || (pending.has(run.id) && run.status !== "running")) unique.set(run.id, run);
  }
  return [...unique.values()].sort((a, b) => a.id - b.id);
}

function prunePending(pending: PendingRun[], now: Date): PendingRun[] {
  return pending.filter((p) => now.getTime() - Date.parse(p.createdAt) < PENDING_MAX_AGE_MS);
}

/**
 * Announces each run that reached `failed` after the baseline exactly once, threads further
 * consecutive failures under the first alert, and replies once when the test passes again.
 * State moves past a run only after the post it needed succeeded.
 */
export async function pollTestSubscription(sub: TestSubscription, ctx: PollContext): Promise<PollOutcome> {
  const { deps, now } = ctx;
  let recent: RecentRuns;
  try {
    recent = await fetchRecentRuns(deps.vendor, sub);
  } catch (error) {
    const message = describeVendorFailure(error);
    return { next: withError(sub, message, now), posts: 0, error: message };
  }

  const todo = runsToProcess(sub, recent.runs);
  const pruned = prunePending(sub.pendingRuns, now);
  if (todo.length === 0) {
    const changed = sub.lastError !== null || pruned.length !== sub.pendingRuns.length;
    return changed
      ? { next: { ...sub, pendingRuns: pruned, lastError: null }, posts: 0, error: null }
      : unchanged();
  }

  const { test } = recent;
  const appUrl = deps.config.decipherAppUrl;
  let state: TestSubscription = { ...sub, pendingRuns: pruned, testName: test.name || sub.testName };
  let posts = 0;
  let leased = false;

  const advance = (run: TestRun, pending: boolean): TestSubscription => ({
    ...state,
    lastRunId: Math.max(state.lastRunId, run.id),
    lastRunAt: run.id > state.lastRunId ? run.createdAt : state.lastRunAt,
    pendingRuns: [
      ...state.pendingRuns.filter((p) => p.id !== run.id),
      ...(pending ? [{ id: run.id, createdAt: run.createdAt }] : []),
    ],
    lastError: null,
    lastChangeAt: now.toISOString(),
  });

  for (const run of todo) {
    const needsPost = run.status === "failed" || (run.status === "passed" && state.streak !== null);
    if (needsPost && !leased) {
      if (!(await ctx.lease())) return { next: null, posts, error: null };
      leased = true;
    }
    if (run.status === "running") {
      state = advance(run, true);
    } else if (run.status === "failed") {
      const streak = state.streak;
      const failingStreak = (streak?.failedRuns ?? 0) + 1;
      const input = { test, run, appUrl, now, failingStreak };
      const result = streak
        ? await post(deps.slack, sub.channelId, failedRunReply(input), streak.threadTs)
        : await post(deps.slack, sub.channelId, failedRunAlert(input));
      if (!result.ok)
        return finish(afterSlackFailure(state, result.failure, now), posts, result.failure.code);
      posts++;
      if (streak) {
        // The parent says how long the test has been failing; a failed edit costs only that line.
        await update(deps.slack, sub.channelId, streak.threadTs, failedRunAlert(input));
      }
      state = {
        ...advance(run, false),
        streak: streak
          ? { ...streak, failedRuns: failingStreak, lastRunId: run.id }
          : { threadTs: result.ts, failedRuns: 1, firstRunId: run.id, lastRunId: run.id },
      };
    } else {
      const streak = state.streak;
      if (streak) {
        const reply = recoveryReply({ test, run, failedRuns: streak.failedRuns, appUrl, now });
        const result = await post(deps.slack, sub.channelId, reply, streak.threadTs);
        if (!result.ok)
          return finish(afterSlackFailure(state, result.failure, now), posts, result.failure.code);
        posts++;
      }
      state = { ...advance(run, false), streak: null };
    }
  }
  return finish(state, posts, null);
}

function finish(next: Subscription, posts: number, error: string | null): PollOutcome {
  return { next, posts, error };
}
