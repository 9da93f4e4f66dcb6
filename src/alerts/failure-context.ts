import type { CollectionSubscription, Subscription, TestSubscription } from "../state/subscription-types.ts";
import type { TestRun } from "../vendor/types.ts";
import { classifyTest, type TestClassification } from "./classify.ts";
import { runsForOptions } from "./failure-route.ts";
import type { PollContext } from "./poll-context.ts";
import { type ImpactResult, impactVendorClient, productionImpact } from "./production-impact.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A post and a parent edit stay affordable after the context is read. */
const KEEP_FOR_ALERT = 2;

/** What a new failure means, read only when there is one: never on an idle poll. */
export type FailureContext = {
  /** The test's runs of the last 24 h (one page), newest included. */
  history: TestRun[];
  classification: TestClassification;
  /** Production sessions on the test's `page:`, when it names one. */
  impact: ImpactResult | null;
};

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
  return { history: counted, classification, impact };
}
