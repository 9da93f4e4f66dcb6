import type { TestRun } from "../decipher/types.ts";
import { runsThrough, STRIP_RUNS } from "../model/alert-evidence.ts";
import type { FailureContext } from "../model/failure-context.ts";
import { byKind } from "../model/kind-facts.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { Subscription, TestSubscription } from "../model/subscription.ts";
import { classifyTest, earlierStreakKnown, withEarlierStreak } from "../model/test-classification.ts";
import { runsForOptions } from "./failure-route.ts";
import type { PollContext } from "./poll-context.ts";
import { impactVendorClient, productionImpact } from "./read-production-impact.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Wider windows read, one after the other, until the strip has its 10 runs. */
const STRIP_WINDOWS_MS = [7 * DAY_MS, 30 * DAY_MS];
/** A post and a parent edit stay affordable after the context is read. */
const KEEP_FOR_ALERT = 2;

/**
 * One request for the test's recent runs (the vendor's list is the history: the bot keeps
 * none), and with `page:` at most two for its production impact. Skipped, never blocking the
 * alert, when the invocation's budget is short or Decipher fails.
 */
export async function readFailureContext(
  ctx: PollContext,
  sub: TestSubscription,
  run: TestRun,
): Promise<FailureContext | null> {
  const { deps, now, budget } = ctx;
  if (!budget.has(KEEP_FOR_ALERT + 1)) return null;
  let history: TestRun[];
  try {
    const page = await deps.vendor.listTestRuns(sub.testId, {
      status: "all",
      limit: 100,
      since: new Date(now.getTime() - DAY_MS),
    });
    history = page.data.some((r) => r.id === run.id) ? page.data : [...page.data, run];
  } catch {
    return null;
  }
  const counted = runsForOptions(history, sub.options);
  // The strip ends with this run (src/model/alert-evidence.ts): the runs after it do not count
  // towards its 10. A day of failures only is read further back too, for where its streak began.
  const recent =
    runsThrough(counted, run.id).length < STRIP_RUNS || !earlierStreakKnown(counted, [])
      ? await readRecentRuns(ctx, sub, counted, run.id)
      : null;
  const classification = classifyTest(recent ? withEarlierStreak(counted, recent) : counted, now);
  const page = sub.options?.page;
  let impact: ImpactResult | null = null;
  if (page) {
    const channel: Subscription[] = (await ctx.channelSubscriptions?.().catch(() => null)) ?? [];
    const collections = byKind(channel).collection;
    impact = await productionImpact(impactVendorClient(deps.config, budget), {
      page,
      collections,
      now,
      budget,
      keep: KEEP_FOR_ALERT,
    });
  }
  return { history: counted, classification, impact, ...(recent ? { recent } : {}) };
}

/**
 * The strip promises the last 10 runs up to the failure: a test that ran fewer times in 24 h gets its last week
 * read, and if that still holds fewer, its last month; so does a test that failed every run of
 * the day, until the pass before its streak is found. Each wider window is read only when the
 * narrower one had under 10 runs, so it fits one page whatever order the vendor lists it in.
 * Skipped when the budget is short; a failed read keeps what was read.
 */
async function readRecentRuns(
  ctx: PollContext,
  sub: TestSubscription,
  day: readonly TestRun[],
  runId: number,
): Promise<TestRun[] | null> {
  const { deps, now, budget } = ctx;
  const byId = new Map(day.map((r) => [r.id, r]));
  for (const windowMs of STRIP_WINDOWS_MS) {
    const known = [...byId.values()];
    const enough = runsThrough(known, runId).length >= STRIP_RUNS && earlierStreakKnown(day, known);
    if (enough || !budget.has(KEEP_FOR_ALERT + 2)) break;
    try {
      const page = await deps.vendor.listTestRuns(sub.testId, {
        status: "all",
        limit: 100,
        since: new Date(now.getTime() - windowMs),
      });
      for (const run of runsForOptions(page.data, sub.options)) byId.set(run.id, run);
    } catch {
      break;
    }
  }
  return byId.size > day.length ? [...byId.values()] : null;
}
