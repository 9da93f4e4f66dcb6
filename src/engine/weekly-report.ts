import { paginatePages } from "../decipher/paginate.ts";
import type { TestInfo, TestRun } from "../decipher/types.ts";
import { withProductionLines } from "../messages/failure-meaning.ts";
import { testUrl } from "../messages/links.ts";
import { type WeeklyCollectionLine, type WeeklyTestLine, weeklyMessage } from "../messages/weekly-message.ts";
import { byKind } from "../model/kind-facts.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";
import { classifyTest } from "../model/test-classification.ts";
import { testState, testStateFacts } from "../model/test-state.ts";
import { flakiest, weekTestFigures } from "../model/weekly-figures.ts";
import { afterSent, nextWeeklyOccurrence, type WeeklySchedule } from "../model/weekly-schedule.ts";
import { localDate, nextOccurrence } from "../util/local-time.ts";
import { productionCost, productionLines } from "./compose-digest.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { runsForOptions } from "./failure-route.ts";
import type { LedgerDigestLine } from "./ledger-digest.ts";
import type { Outbox } from "./outbox.ts";
import type { ReportOutcome } from "./report-outcome.ts";
import {
  COLLECTION_PAGES,
  POST_CALLS,
  type ReportReads,
  readCollectionSessions,
  readWithinBudget,
  waitForDecipher,
} from "./report-reads.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** Pages read per test (of 100 runs); beyond, figures are floors. */
const TEST_PAGES = 3;

/** A test's or a collection's line, read in an earlier call for the same report. */
export type WeeklyReads = {
  tests: ReportReads<WeeklyTestLine>;
  /** Null: Decipher did not answer for the collection. */
  collections: ReportReads<WeeklyCollectionLine | null>;
};

/** A weekly report's outcome; its reads are the tests and collections read so far. */
export type WeeklyOutcome = ReportOutcome<WeeklySchedule, WeeklyReads>;

/**
 * Where the report's counts start: midnight in `zone` at the start of its first day
 * (`weekDays`), so its tests' runs, its chart and its collections' growth count the same 7
 * dates its header names, not 7 × 24 h that begin on the day before them.
 */
export function weekStart(now: Date, zone: string): Date {
  return nextOccurrence("00:00", zone, new Date(now.getTime() - WEEK_MS));
}

/** The 7 local dates the report covers, oldest first, ending with the day it is sent. */
export function weekDays(now: Date, zone: string): string[] {
  const days: string[] = [];
  for (let i = 6; i >= 0; i--) {
    const date = localDate(new Date(now.getTime() - i * DAY_MS), zone);
    if (!days.includes(date)) days.push(date);
  }
  // A day that repeats across a daylight-saving change still leaves 7 distinct dates.
  return days.slice(-7);
}

async function testLine(
  deps: EngineDeps,
  sub: TestSubscription,
  now: Date,
  zone: string,
): Promise<WeeklyTestLine> {
  const runs: TestRun[] = [];
  let test: TestInfo | undefined;
  let capped = false;
  for await (const page of paginatePages(
    (cursor) =>
      deps.vendor.listTestRuns(sub.testId, {
        status: "all",
        limit: 100,
        since: weekStart(now, zone),
        ...(cursor ? { cursor } : {}),
      }),
    { maxPages: TEST_PAGES },
  )) {
    test = page.test;
    runs.push(...page.data);
    capped = page.hasMore;
  }
  const figures = weekTestFigures(runs, (run) => {
    const at = new Date(run.createdAt);
    return Number.isNaN(at.getTime()) ? null : localDate(at, zone);
  });
  return {
    test: test ?? {
      id: sub.testId,
      name: sub.testName,
      url: testUrl(deps.config.decipherAppUrl, sub.testId),
    },
    // The alerts' classification of the runs read here; the test's own object may say better when the report goes out.
    state: testState(
      testStateFacts(classifyTest(runsForOptions(runs, sub.options), now), {
        anyRun: runs.length > 0,
        failingStreak: sub.streak !== null,
        calledFlakyAt: null,
      }),
    ),
    figures,
    capped,
  };
}

async function collectionLine(
  deps: EngineDeps,
  sub: CollectionSubscription,
  now: Date,
  zone: string,
): Promise<WeeklyCollectionLine> {
  const since = weekStart(now, zone);
  const { collection, sessions } = await readCollectionSessions(deps, sub.collectionId, since);
  return {
    collection,
    newSessions: sessions,
    since: since.toISOString(),
    regressed: sub.regressed || (sub.wasResolved && sessions.count > 0),
  };
}

const EMPTY_WEEK = { runs: 0, settled: 0, failures: 0, recoveries: 0, flips: 0, perDay: {} };

/**
 * Builds and posts one channel's weekly report. Each test's and collection's week is read from
 * Decipher, as many as this invocation's budget allows: a big channel's report is read over
 * several calls (`reading`, with what this one read; the next call is handed them as
 * `earlier`), and posted by the call that has read the last of them. The schedule moves to the
 * next week only after the post succeeded; a missed cycle sends it at the next one, once (like
 * the digest, src/engine/compose-digest.ts).
 */
export async function sendWeeklyReport(
  deps: EngineDeps,
  channelId: string,
  schedule: WeeklySchedule,
  subscriptions: Subscription[],
  now: Date,
  /** The channel's outbox: keyed by the week it is for, a report goes out once. */
  outbox: Outbox,
  /** The tests' lines from their own ledgers, by test id (asked once the report goes out): each test's state as the digest names it. */
  ledgerLines: () => Promise<ReadonlyMap<number, LedgerDigestLine>> = async () => new Map(),
  /** What earlier calls for this report read. */
  earlier: WeeklyReads = { tests: new Map(), collections: new Map() },
): Promise<WeeklyOutcome> {
  const active = subscriptions.filter((s) => s.channelId === channelId && !s.paused);
  const { test: testSubs, collection: collectionSubs } = byKind(active);
  const appUrl = deps.config.decipherAppUrl;
  const tests = await readWithinBudget(
    deps.budget,
    testSubs.map((s) => ({ id: s.testId, item: s })),
    earlier.tests,
    TEST_PAGES,
    (s) => testLine(deps, s, now, schedule.zone),
    (s): WeeklyTestLine => ({
      test: { id: s.testId, name: s.testName, url: testUrl(appUrl, s.testId) },
      state: "unknown",
      figures: EMPTY_WEEK,
      capped: false,
      unknown: true,
    }),
  );
  const collections = await readWithinBudget(
    deps.budget,
    collectionSubs.map((s) => ({ id: s.collectionId, item: s })),
    earlier.collections,
    COLLECTION_PAGES,
    (s): Promise<WeeklyCollectionLine | null> => collectionLine(deps, s, now, schedule.zone),
    () => null,
  );
  const reads = { tests: tests.reads, collections: collections.reads };
  const finish = POST_CALLS + productionCost(active);
  if (!tests.complete || !collections.complete || !deps.budget.has(finish)) return { kind: "reading", reads };
  const testLines = testSubs.flatMap((s) => {
    const line = tests.reads.get(s.testId) ?? earlier.tests.get(s.testId);
    return line ? [line] : [];
  });
  const collectionLines = collectionSubs.map(
    (s) => collections.reads.get(s.collectionId) ?? earlier.collections.get(s.collectionId) ?? null,
  );
  const failed = testLines.filter((t) => t.unknown).length + collectionLines.filter((c) => c === null).length;
  if (waitForDecipher(active, failed, schedule.nextDueAt, now)) {
    return { kind: "retry", error: "Decipher did not answer for any subscription" };
  }
  // The state the test's own object gives (the digest's); else the classification of the runs read.
  const known = await ledgerLines();
  const withState = testLines.map((t) => {
    const state = t.unknown ? undefined : known.get(t.test.id)?.state;
    return state ? { ...t, state } : t;
  });
  const message = withProductionLines(
    weeklyMessage({
      days: weekDays(now, schedule.zone),
      zone: schedule.zone,
      tests: withState,
      collections: collectionLines.filter((c) => c !== null),
      unreadCollections: collectionSubs.flatMap((s, i) =>
        collectionLines[i] === null ? [{ id: s.collectionId, name: s.rootCause }] : [],
      ),
      flakiest: flakiest(withState.filter((t) => !t.unknown)),
      appUrl,
    }),
    // The week's counts are not 24 h ones: only the collections' totals are passed on.
    await productionLines(
      deps,
      active,
      now,
      POST_CALLS,
      new Map(
        collectionLines.flatMap((c) =>
          c ? [[c.collection.id, { sessionCount: c.collection.sessionCount, addedToday: null }]] : [],
        ),
      ),
    ),
  );
  const result = await outbox.send(
    `weekly:${schedule.zone}:${schedule.day}:${schedule.time}:${schedule.nextDueAt}`,
    message,
  );
  if (result.ok) return { kind: "sent", next: afterSent(schedule, now) };
  const next: WeeklySchedule = {
    ...schedule,
    nextDueAt: nextWeeklyOccurrence(schedule.day, schedule.time, schedule.zone, now).toISOString(),
  };
  // A channel that is gone for good is not retried every minute: next week's report is.
  if (result.failure.kind === "permanent") return { kind: "skipped", next, error: result.failure.code };
  return { kind: "retry", error: result.failure.code };
}
