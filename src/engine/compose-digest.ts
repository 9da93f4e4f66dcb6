import { digestMessage } from "../messages/digest-message.ts";
import { withProductionLines } from "../messages/failure-meaning.ts";
import { testUrl } from "../messages/links.ts";
import { recordDay } from "../model/digest-history.ts";
import { byKind } from "../model/kind-facts.ts";
import type { ImpactResult } from "../model/production-impact.ts";
import type { CollectionSubscription, Subscription, TestSubscription } from "../model/subscription.ts";
import { isSnoozed } from "../model/triage-state.ts";
import type { DigestSchedule } from "../store/digest-store.ts";
import { localDate, nextOccurrence } from "../util/local-time.ts";
import type { EngineDeps } from "./engine-deps.ts";
import type { LedgerDigestLine } from "./ledger-digest.ts";
import type { Outbox } from "./outbox.ts";
import { type ImpactInput, impactVendorClient, productionImpact } from "./read-production-impact.ts";
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

/** A collection's digest line: the collection, and its sessions of the last 24 hours. */
type CollectionLine = Awaited<ReturnType<typeof collectionLine>>;

/** A digest's outcome; its reads are the collections read so far. */
export type DigestOutcome = ReportOutcome<DigestSchedule, ReportReads<CollectionLine | null>>;

export function isDue(schedule: DigestSchedule, now: Date): boolean {
  return Date.parse(schedule.nextDueAt) <= now.getTime();
}

/** A test Decipher could not answer for still gets its line, marked unknown. */
function unknownTestLine(sub: TestSubscription, appUrl: string) {
  return {
    test: { id: sub.testId, name: sub.testName, url: testUrl(appUrl, sub.testId) },
    runs24h: 0,
    failures24h: 0,
    passRate: null,
    state: "unknown" as const,
  };
}

/**
 * A collection's line: its state, and the sessions with issues in the last 24 hours — read
 * from the vendor's own time window, so it is a 24-hour figure whenever the last digest or
 * alert was.
 */
async function collectionLine(deps: EngineDeps, sub: CollectionSubscription, now: Date) {
  const { collection, sessions } = await readCollectionSessions(
    deps,
    sub.collectionId,
    new Date(now.getTime() - DAY_MS),
  );
  return { collection, newSessions24h: sessions };
}

/** Production lookups a digest makes at most; each costs up to two vendor requests. */
const MAX_PRODUCTION_LINES = 5;
/** What one production lookup may cost. */
const PRODUCTION_LINE_CALLS = 3;

const linkedTests = (subscriptions: readonly Subscription[]) =>
  byKind(subscriptions)
    .test.filter((s) => !!s.options?.page)
    .slice(0, MAX_PRODUCTION_LINES);

/** The calls a report's production lines may make: a report goes out when these and its post fit. */
export const productionCost = (subscriptions: readonly Subscription[]) =>
  linkedTests(subscriptions).length * PRODUCTION_LINE_CALLS;

/**
 * "Tests vs production": for each test that names its page, the sessions real users had
 * there in 24 h. Skipped line by line when the budget runs short (keeping `reserve` calls for
 * the post); never holds the digest. `counts`: the collections as the report just read them,
 * so a collection on the page has the count the report's own lines give it, not the one of
 * its last alert.
 */
export async function productionLines(
  deps: EngineDeps,
  subscriptions: Subscription[],
  now: Date,
  reserve: number,
  counts: ImpactInput["counts"],
) {
  const collections = byKind(subscriptions).collection;
  const linked = linkedTests(subscriptions);
  const lines: { testName: string; impact: ImpactResult }[] = [];
  for (const sub of linked) {
    if (!deps.budget.has(PRODUCTION_LINE_CALLS + reserve)) break;
    const impact = await productionImpact(impactVendorClient(deps.config, deps.budget), {
      page: sub.options?.page as string,
      collections,
      now,
      budget: deps.budget,
      keep: 1,
      counts,
    });
    lines.push({ testName: sub.testName || `Test ${sub.testId}`, impact });
  }
  return lines;
}

/**
 * Builds and posts one channel's digest. Its tests' lines come from their objects; each
 * collection's day is read from Decipher, as many as this invocation's budget allows: a channel
 * of many collections is read over several calls (`reading`, with what this one read; the next
 * call is handed them as `earlier`), and posted by the call that has read the last of them.
 * The schedule moves to the next local `HH:MM` only after the post succeeded; a missed cycle
 * therefore sends it at the next one, once.
 */
export async function sendDigest(
  deps: EngineDeps,
  channelId: string,
  schedule: DigestSchedule,
  subscriptions: Subscription[],
  now: Date,
  /** The channel's outbox: keyed by the occurrence it is for, a digest goes out once. */
  outbox: Outbox,
  /**
   * The tests' lines from their own ledgers, by test id (asked once the digest goes out): no
   * vendor read per test, so a channel of hundreds of tests gets its digest. A test missing
   * there is shown as unknown.
   */
  ledgerLines: () => Promise<ReadonlyMap<number, LedgerDigestLine>>,
  /** The collections earlier calls for this digest read. */
  earlier: ReportReads<CollectionLine | null> = new Map(),
): Promise<DigestOutcome> {
  const active = subscriptions.filter((s) => s.channelId === channelId && !s.paused);
  const { test: tests, collection: watched } = byKind(active);
  const appUrl = deps.config.decipherAppUrl;
  const read = await readWithinBudget(
    deps.budget,
    watched.map((s) => ({ id: s.collectionId, item: s })),
    earlier,
    COLLECTION_PAGES,
    (s): Promise<CollectionLine | null> => collectionLine(deps, s, now),
    () => null,
  );
  if (!read.complete || !deps.budget.has(POST_CALLS + productionCost(active)))
    return { kind: "reading", reads: read.reads };
  const collectionLines = watched.map(
    (s) => read.reads.get(s.collectionId) ?? earlier.get(s.collectionId) ?? null,
  );
  const ledger = await ledgerLines();
  const testLines = tests.map((s) => testLineOf(s, ledger.get(s.testId), appUrl));
  const failed =
    collectionLines.filter((c) => c === null).length + tests.filter((s) => !ledger.has(s.testId)).length;
  if (waitForDecipher(active, failed, schedule.nextDueAt, now)) {
    return { kind: "retry", error: "Decipher did not answer for any subscription" };
  }
  // A muted or snoozed item still gets its line, saying who did it: the digest is where it is not forgotten.
  const snoozed = (s: Subscription | undefined) => (s && isSnoozed(s, now) ? (s.snooze ?? null) : null);
  const lines = {
    tests: testLines.map((line, i) => ({
      ...line,
      muted: tests[i]?.muted ?? null,
      snoozed: snoozed(tests[i]),
    })),
    collections: collectionLines.flatMap((line, i) =>
      line === null ? [] : [{ ...line, muted: watched[i]?.muted ?? null, snoozed: snoozed(watched[i]) }],
    ),
  };
  const date = localDate(now, schedule.zone);
  const history = recordDay(schedule.history, dayOf(date, testLines, lines.collections));
  const message = withProductionLines(
    digestMessage({
      date,
      zone: schedule.zone,
      collections: [...lines.collections].sort((a, b) => b.newSessions24h.count - a.newSessions24h.count),
      unreadCollections: watched.flatMap((s, i) =>
        collectionLines[i] === null
          ? [{ id: s.collectionId, name: s.rootCause, muted: s.muted ?? null }]
          : [],
      ),
      tests: lines.tests,
      history,
      appUrl,
      now,
    }),
    await productionLines(
      deps,
      active,
      now,
      POST_CALLS,
      new Map(
        lines.collections.map((c) => [
          c.collection.id,
          {
            sessionCount: c.collection.sessionCount,
            addedToday: c.newSessions24h.atLeast ? null : c.newSessions24h.count,
          },
        ]),
      ),
    ),
  );
  const result = await outbox.send(`digest:${schedule.zone}:${schedule.time}:${schedule.nextDueAt}`, message);
  const next: DigestSchedule = {
    ...schedule,
    nextDueAt: nextOccurrence(schedule.time, schedule.zone, now).toISOString(),
  };
  if (result.ok) {
    return {
      kind: "sent",
      next: {
        ...next,
        lastSentAt: now.toISOString(),
        collectionCounts: Object.fromEntries(
          lines.collections.map((c) => [String(c.collection.id), c.collection.sessionCount]),
        ),
        history,
      },
    };
  }
  // A channel that is gone for good does not get retried every minute: try again tomorrow.
  if (result.failure.kind === "permanent") return { kind: "skipped", next, error: result.failure.code };
  return { kind: "retry", error: result.failure.code };
}

/** A test's digest line from its ledger's, or the line of a test its object did not answer for. */
function testLineOf(s: TestSubscription, line: LedgerDigestLine | undefined, appUrl: string) {
  if (!line) return unknownTestLine(s, appUrl);
  const { counted: _counted, ...figures } = line;
  return { test: { id: s.testId, name: s.testName, url: testUrl(appUrl, s.testId) }, ...figures };
}

/** The day the digest records in its history: runs settled and failed, and each collection's new sessions. */
function dayOf(
  date: string,
  tests: readonly { runs24h: number; failures24h: number }[],
  collections: readonly CollectionLine[],
) {
  return {
    date,
    tests: {
      settled: tests.reduce((n, t) => n + t.runs24h, 0),
      failures: tests.reduce((n, t) => n + t.failures24h, 0),
    },
    collections: Object.fromEntries(
      collections.map((c) => [String(c.collection.id), c.newSessions24h.count]),
    ),
  };
}
