import { failedRunAlert, failedRunReply, recoveryReply } from "../slack/blocks/index.ts";
import { describeSlackFailure, type SlackFailure } from "../slack/errors.ts";
import type { SlackMessage } from "../slack/limits.ts";
import type { TestSubscription } from "../state/subscription-types.ts";
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
import { ABANDONED_AFTER_MS, advanceWatermark, createdMs } from "./run-window.ts";
import { post, update } from "./slack-post.ts";

const PAGE_SIZE = 50;
const MAX_PAGES = 4;
/** Slack between the vendor's `createdAt` and whatever time `since` filters on. */
const SINCE_MARGIN_MS = 10 * 60 * 1000;
/**
 * Passed runs need no post, so moving the watermark over them is stored only now and then:
 * a test that runs every minute would otherwise cost 1,440 KV writes a day.
 */
const LAZY_ADVANCE_MS = 30 * 60 * 1000;
const LAZY_ADVANCE_RUNS = 25;

type RunWindow = { test: TestInfo; runs: TestRun[]; complete: boolean };

async function readPages(
  vendor: VendorClient,
  sub: TestSubscription,
  status: "all" | "failed",
  since: Date | undefined,
): Promise<{ test: TestInfo; runs: TestRun[]; complete: boolean }> {
  const runs: TestRun[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await vendor.listTestRuns(sub.testId, {
      status,
      limit: PAGE_SIZE,
      ...(since ? { since } : {}),
      ...(cursor ? { cursor } : {}),
    });
    runs.push(...res.data);
    if (!since || !res.hasMore || !res.nextCursor) return { test: res.test, runs, complete: true };
    cursor = res.nextCursor;
    if (page === MAX_PAGES - 1) return { test: res.test, runs, complete: false };
  }
  throw new Error("unreachable");
}

/**
 * Runs since shortly before the watermark. Filtering by time, not by position, keeps this
 * correct whatever order the API lists runs in, and an idle poll is one request. When the
 * window holds more runs than a poll reads, the failed ones are read on their own, so a
 * backlog can delay a recovery note but never lose a failure.
 */
async function fetchWindow(vendor: VendorClient, sub: TestSubscription): Promise<RunWindow> {
  // A test with no settled run yet is anchored at the subscription itself.
  const anchor = Date.parse(sub.lastRunAt ?? sub.createdAt);
  const since = Number.isFinite(anchor) ? new Date(anchor - SINCE_MARGIN_MS) : undefined;
  const all = await readPages(vendor, sub, "all", since);
  if (all.complete) return all;
  const failed = await readPages(vendor, sub, "failed", since);
  const byId = new Map(all.runs.map((run) => [run.id, run]));
  for (const run of failed.runs) byId.set(run.id, run);
  return { test: all.test, runs: [...byId.values()], complete: false };
}

/**
 * Which read runs the watermark may pass. After a full read, all of them. After a partial one
 * the unread runs are older than the oldest read run (and its failures were read on their own),
 * so the watermark may pass the read runs only once those unread ones are old enough to count
 * as settled: a run among them still running could otherwise fail later unseen.
 */
function passable(window: RunWindow, candidates: TestRun[], now: Date): TestRun[] {
  if (window.complete) return candidates;
  const times = window.runs.map(createdMs).filter((t): t is number => t !== null);
  const oldestRead = times.length > 0 ? Math.min(...times) : Number.NaN;
  return now.getTime() - oldestRead > ABANDONED_AFTER_MS ? candidates : [];
}

/**
 * Announces each run that reached `failed` after the baseline exactly once, threads further
 * consecutive failures under the first alert, and replies once when a newer run passes. The
 * watermark moves past a run only after the post it needed succeeded.
 */
export async function pollTestSubscription(sub: TestSubscription, ctx: PollContext): Promise<PollOutcome> {
  const { deps, now } = ctx;
  let window: RunWindow;
  try {
    window = await fetchWindow(deps.vendor, sub);
  } catch (error) {
    const message = describeVendorFailure(error);
    return { next: withError(sub, message, now), posts: 0, error: message };
  }

  const { test } = window;
  const appUrl = deps.config.decipherAppUrl;
  const candidates = window.runs.filter((run) => run.id > sub.lastRunId).sort((a, b) => a.id - b.id);
  const handled = new Set(sub.handledRunIds);
  let streak = sub.streak;
  let posts = 0;
  let leased = false;
  let failure: SlackFailure | null = null;
  let stoppedAt: number | null = null;

  /** The parent alert as it should read after this poll: edited once, after the replies. */
  let parentEdit: { ts: string; message: SlackMessage } | null = null;
  const budget = ctx.slackBudget;

  for (const run of candidates) {
    if (handled.has(run.id) || run.status === "running") continue;
    const recovers = run.status === "passed" && streak !== null && run.id > streak.lastRunId;
    if (run.status === "passed" && !recovers) continue;
    // A post and, at the end, one parent edit.
    if (budget.remaining < 2) {
      stoppedAt = run.id;
      break;
    }
    if (!leased) {
      if (!(await ctx.lease())) return unchanged();
      leased = true;
    }
    budget.remaining--;
    if (run.status === "failed") {
      const failingStreak = (streak?.failedRuns ?? 0) + 1;
      const input = { test, run, appUrl, now, failingStreak };
      const result = streak
        ? await post(deps.slack, sub.channelId, failedRunReply(input), streak.threadTs)
        : await post(deps.slack, sub.channelId, failedRunAlert(input));
      if (!result.ok) {
        failure = result.failure;
        stoppedAt = run.id;
        break;
      }
      // The parent says how long the test has been failing.
      if (streak) parentEdit = { ts: streak.threadTs, message: failedRunAlert(input) };
      streak = streak
        ? { ...streak, failedRuns: failingStreak, lastRunId: Math.max(streak.lastRunId, run.id) }
        : { threadTs: result.ts, failedRuns: 1, firstRunId: run.id, lastRunId: run.id };
    } else if (streak) {
      const reply = recoveryReply({ test, run, failedRuns: streak.failedRuns, appUrl, now });
      const result = await post(deps.slack, sub.channelId, reply, streak.threadTs);
      if (!result.ok) {
        failure = result.failure;
        stoppedAt = run.id;
        break;
      }
      // The parent turns green too, when the last failure is still in the window to show.
      const lastFailed = window.runs.find((r) => r.id === streak?.lastRunId);
      parentEdit = lastFailed
        ? {
            ts: streak.threadTs,
            message: failedRunAlert({
              test,
              run: lastFailed,
              appUrl,
              now,
              failingStreak: streak.failedRuns,
              recoveredBy: run,
            }),
          }
        : null;
      streak = null;
    }
    handled.add(run.id);
    posts++;
  }
  if (parentEdit && budget.remaining > 0) {
    budget.remaining--;
    // A failed edit costs only the parent's header line; the replies are what matter.
    await update(deps.slack, sub.channelId, parentEdit.ts, parentEdit.message);
  }

  // The watermark never passes a run whose post failed: it is retried next cycle.
  const readable = passable(window, candidates, now);
  const settledRange = stoppedAt === null ? readable : readable.filter((run) => run.id < stoppedAt);
  const mark = advanceWatermark({ id: sub.lastRunId, at: sub.lastRunAt }, settledRange, now);
  const at = now.toISOString();
  const next: TestSubscription = {
    ...sub,
    testName: test.name || sub.testName,
    lastRunId: mark.id,
    lastRunAt: mark.at,
    handledRunIds: [...handled].filter((id) => id > mark.id).sort((a, b) => a - b),
    streak,
    lastError: null,
    lastChangeAt: at,
  };

  if (failure) {
    const message = describeSlackFailure(failure);
    // Nothing new happened and Slack says what it said last time: no write.
    if (posts === 0 && failure.kind !== "permanent" && sub.lastError?.message === message) return unchanged();
    return { next: afterSlackFailure(next, failure, now), posts, error: failure.code };
  }
  if (posts > 0) return { next, posts, error: null };

  const moved = mark.id !== sub.lastRunId;
  const lazyDue =
    moved &&
    (sub.lastRunAt === null ||
      Date.parse(mark.at ?? "") - Date.parse(sub.lastRunAt) > LAZY_ADVANCE_MS ||
      candidates.length > LAZY_ADVANCE_RUNS);
  return lazyDue || sub.lastError !== null ? { next, posts: 0, error: null } : unchanged();
}
