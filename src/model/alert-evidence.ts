import type { AiSummary, CollectionSession } from "../decipher/types.ts";
import type { FailureContext } from "./failure-context.ts";
import type { ImpactResult } from "./production-impact.ts";
import {
  classifyTest,
  type TestClassification,
  type TestKind,
  withEarlierStreak,
} from "./test-classification.ts";

/**
 * What an alert showed when it was posted, stored with its streak (tests) or card
 * (collections). Every later edit of the alert (a new failure in the streak, a recovery,
 * Acknowledge, Snooze, Mute) renders from it, so only the status line and the controls
 * change. Bounded: long vendor text is cut when stored.
 */

/** How many runs the strip shows. */
export const STRIP_RUNS = 10;
/** Runs an alert keeps: the strip shows the last 10, the duration chart up to 20 (src/messages/run-chart.ts). */
const EVIDENCE_RUNS = 20;
/** Enough of an AI overview for any place an alert shows it (the inline cut is shorter). */
const STORED_OVERVIEW = 600;
const STORED_TEXT = 1000;

/** A run of the strip; its duration, when known, for the alert's duration chart (src/messages/run-chart.ts). */
export type StripMark = { id: number; status: string; durationMs?: number | null };

export type TestAlertEvidence = {
  /** The last runs the strip showed, oldest first, ending with the alert's run. */
  recentRuns: StripMark[];
  /** The failure's class when it was announced, e.g. "new failure — failed after 6 runs passed". */
  classification: { kind: TestKind; reason: string } | null;
  /** Production sessions on the test's `page:`, when it names one. */
  impact: ImpactResult | null;
};

/**
 * A test the collection's page is guarded by, as the alert named it: its last settled run
 * (0: none yet; null: its object did not say) and whether that run failed.
 */
export type GuardMark = {
  testId: number;
  testName: string;
  lastRunId: number | null;
  failing: boolean;
  /** When that run ran: the line dates it, since the test may have run again before the alert went out. */
  lastRunAt?: string | null;
};

export type CollectionAlertEvidence = {
  /** The new session the card showed, its timeline cut to the overview; null when none was read. */
  session: CollectionSession | null;
  /** The representative issue's AI summary, for the card's headline and the details answer. */
  aiSummary: AiSummary | null;
  /** New sessions read that the card did not show (the "…and 2 more" line). */
  moreSessions: number;
  screenshotsExpiresAt: string | null;
  /** Growth is counted from here: the previous alert, or subscribing. */
  since: string | null;
  guards: GuardMark[];
  /**
   * When the guards' last runs were read (the alert's post). An edit of the card on later growth
   * keeps them, so the line names its moment; absent in cards stored before it was kept.
   */
  guardsAt?: string | null;
};

const cut = (text: string | null | undefined, max: number): string | null =>
  typeof text === "string" ? text.slice(0, max) : null;

/** The newest `EVIDENCE_RUNS` runs by id, oldest first (the vendor's list order is undocumented). */
export function stripMarks(runs: readonly StripMark[]): StripMark[] {
  const byId = new Map<number, StripMark>();
  for (const run of runs)
    if (Number.isFinite(run.id))
      byId.set(run.id, {
        id: run.id,
        status: run.status,
        ...(typeof run.durationMs === "number" ? { durationMs: run.durationMs } : {}),
      });
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-EVIDENCE_RUNS);
}

/**
 * The runs a message about run `runId` shows: that run and those before it (by id, the strip's
 * order). Runs read in the same poll that came after it are left out, so "Run #X failed" never
 * sits beside a strip that ends green: the message stays true of one moment, the run's own.
 */
export function runsThrough<R extends { id: number }>(runs: readonly R[], runId: number): R[] {
  return runs.filter((run) => run.id <= runId);
}

/** The runs a strip of run `runId` is drawn from: the latest runs whatever their age, else the day's. */
export const stripSource = (meaning: FailureContext, runId: number) =>
  runsThrough(meaning.recent ?? meaning.history, runId);

/**
 * The test's class as of failed run `runId`, the strip's moment: the runs read after it in the
 * same look are left out, so a card about the first of two failures read at once does not call
 * it "failed 2 runs in a row" beside a strip that ends with one.
 */
export function classifiedThrough(meaning: FailureContext, runId: number, now: Date): TestClassification {
  const day = runsThrough(meaning.history, runId);
  const earlier = meaning.recent ? runsThrough(meaning.recent, runId) : [];
  return classifyTest(earlier.length > 0 ? withEarlierStreak(day, earlier) : day, now);
}

/**
 * What the alert of failed run `runId` shows besides the run itself; null when nothing was read.
 * Its class is the context's unless one of the run's own moment is given (`classifiedThrough`).
 */
export function testAlertEvidence(
  meaning: FailureContext | null | undefined,
  runId: number,
  classification: TestClassification | undefined = meaning?.classification,
): TestAlertEvidence | null {
  if (!meaning || !classification) return null;
  const { impact } = meaning;
  const example = impact && !impact.unavailable ? impact.example : null;
  return {
    recentRuns: stripMarks(stripSource(meaning, runId)),
    classification: { kind: classification.kind, reason: classification.reason },
    impact:
      impact && !impact.unavailable && example
        ? { ...impact, example: { ...example, overview: cut(example.overview, STORED_OVERVIEW) } }
        : impact,
  };
}

function storedSession(session: CollectionSession): CollectionSession {
  const { timeline, representativeIssue, clicks: _clicks, ...rest } = session;
  return {
    ...rest,
    ...(timeline
      ? {
          timeline: {
            overview: cut(timeline.overview, STORED_OVERVIEW) ?? "",
            tags: [],
            pages: [],
            loadingIssues: [],
          },
        }
      : {}),
    representativeIssue: representativeIssue ? { ...representativeIssue, aiSummary: null } : null,
  };
}

function storedSummary(summary: AiSummary | null | undefined): AiSummary | null {
  if (!summary) return null;
  const text = (value: string) => cut(value, STORED_TEXT) ?? "";
  return {
    category: text(summary.category),
    behavior: text(summary.behavior),
    productFeature: text(summary.productFeature),
    errorText: text(summary.errorText),
    reasoning: text(summary.reasoning),
  };
}

/** The first session that carries an AI summary of the representative issue. */
export const aiSummaryOf = (sessions: readonly CollectionSession[]): AiSummary | null =>
  sessions.find((s) => s.representativeIssue?.aiSummary)?.representativeIssue?.aiSummary ?? null;

/** What a collection alert shows: the first new session, the AI summary and what it leaves out. */
export function collectionAlertEvidence(input: {
  sessions: readonly CollectionSession[];
  screenshotsExpiresAt: string | null;
  since: string | null;
  guards?: readonly GuardMark[];
  guardsAt?: string | null;
  /** New sessions the alert counts (its growth): the evidence read holds only the first few. */
  grown?: number;
}): CollectionAlertEvidence {
  const first = input.sessions[0];
  const shown = first ? 1 : 0;
  return {
    session: first ? storedSession(first) : null,
    aiSummary: storedSummary(aiSummaryOf(input.sessions)),
    moreSessions: Math.max(0, Math.max(input.grown ?? 0, input.sessions.length) - shown),
    screenshotsExpiresAt: input.screenshotsExpiresAt,
    since: input.since,
    guards: (input.guards ?? []).slice(0, 5).map((g) => ({ ...g })),
    ...(input.guardsAt ? { guardsAt: input.guardsAt } : {}),
  };
}
