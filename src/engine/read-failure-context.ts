import { STRIP_RUNS } from "../model/alert-evidence.ts";
import type { FailureContext } from "../model/failure-context.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";
import { classifyTest, type TestClassification } from "../model/test-classification.ts";
import type { TestRun } from "../vendor/types.ts";
import { runsForOptions } from "./failure-route.ts";
import type { PollContext } from "./poll-context.ts";
import { impactVendorClient, productionImpact } from "./read-production-impact.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const STRIP_WINDOW_MS = 7 * DAY_MS;
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
  const classification = classifyTest(counted, now);
  const recent = counted.length < STRIP_RUNS ? await readRecentRuns(ctx, sub, counted) : null;
  const page = sub.options?.page;
  let impact: ImpactResult | null = null;
  if (page) {
    const channel: Subscription[] = await deps.subscriptions.listForChannel(sub.channelId).catch(() => []);
    const collections = channel.filter((s): s is CollectionSubscription => s.kind === "collection");
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
 * The strip promises the last 10 runs: a test that ran fewer times in 24 h gets one more
 * read of its last week (a week of a test that runs under 10 times a day fits one page,
 * whatever order the vendor lists it in). Skipped when the budget is short or it fails.
 */
async function readRecentRuns(
  ctx: PollContext,
  sub: TestSubscription,
  day: readonly TestRun[],
): Promise<TestRun[] | null> {
  const { deps, now, budget } = ctx;
  if (!budget.has(KEEP_FOR_ALERT + 2)) return null;
  try {
    const page = await deps.vendor.listTestRuns(sub.testId, {
      status: "all",
      limit: 100,
      since: new Date(now.getTime() - STRIP_WINDOW_MS),
    });
    const byId = new Map([...runsForOptions(page.data, sub.options), ...day].map((r) => [r.id, r]));
    return [...byId.values()];
  } catch {
    return null;
  }
}
