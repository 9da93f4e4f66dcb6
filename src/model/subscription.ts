import type { IssueCollection } from "../decipher/types.ts";
import type { CollectionAlertEvidence, TestAlertEvidence } from "./alert-evidence.ts";
import type { FailingAtSubscribe } from "./failing-at-subscribe.ts";
import type { Mention } from "./mention.ts";
import type { RunRecord } from "./run-record.ts";
import { DEFAULT_TEAM, type SubscriptionKind } from "./subscription-kind.ts";
import type { TestStateFacts } from "./test-state.ts";
import type { Acknowledgement, Muted, Snooze } from "./triage-state.ts";

/**
 * What a channel watches. The subscription's Durable Object (src/objects/) holds the
 * authoritative copy and is its only writer; KV holds a readable copy it writes on change.
 * Dates are ISO strings. Fields that some stored copies lack are optional, so every stored
 * copy still reads.
 */

export type Paused = {
  reason: string;
  /** Since when: the first refusal, kept while it is tried again. */
  at: string;
  /** Slack refused the channel: tried again at this time (src/model/pause.ts). Absent: not retried. */
  retryAt?: string;
};
export type LastError = {
  message: string;
  at: string;
  /** Who failed: a Slack outage backs off, a vendor one is retried every cycle. */
  source?: "slack" | "vendor";
  /** Slack rate-limited the bot and said when to come back (`Retry-After`): no poll before then. */
  retryAt?: string;
  /**
   * Not a failure yet: a post's answer was lost and the bot is looking it up
   * (src/engine/settle-outcome.ts), so status and Home say "checking", not "failed".
   */
  checking?: true;
};

/** A vendor item the bot could not read: skipped, reported once, never blocking the rest. */
export type Quarantined = { what: string; field: string; at: string };

/** Which "alerts are not working" notice the channel was last told about. */
export type NoticeState = "none" | "erroring" | "paused";

type SubscriptionBase = {
  /** Slack team; part of the object's name so several workspaces fit later. */
  teamId?: string;
  channelId: string;
  createdAt: string;
  createdBy: string;
  /** Set when Slack refuses the channel for good; the cron skips it until re-subscribed. */
  paused: Paused | null;
  lastError: LastError | null;
  /** Last time the stored state changed (an alert, a baseline move, an error). */
  lastChangeAt: string;
  /**
   * Start of the current run of polls that erred (Decipher or Slack refused, or did not
   * answer); null while polls succeed. "Failing" is kept for what is watched: a test's runs.
   */
  erroringSince?: string | null;
  notice?: NoticeState;
  /** The episode (`erroringSince` or `paused.at`) the told notice is about: it keys the "working again" notice. */
  noticeSince?: string | null;
  /** The last few vendor items skipped as unreadable. */
  quarantined?: Quarantined[];
  acknowledgedBy?: Acknowledgement[];
  snooze?: Snooze | null;
  /**
   * Muted from an alert: kept, and shown in status, list, Home and the digest (who, when).
   * Nothing is posted; every failure is still recorded in the ledger, counted as muted.
   */
  muted?: Muted | null;
  /**
   * Ledger rows owed a fate for over 5 minutes (src/model/run-ledger.ts): failed runs of a
   * test, growth of a collection. Should always be 0.
   */
  overdue?: number;
};

/**
 * The day's "is flaky" alert and its thread. Its first run and evidence (stored when it was
 * posted; absent on threads opened before they were) let a triage click re-render it as it
 * was, with only the status line and the controls changed.
 */
export type FlakyThread = {
  ts: string;
  day: string;
  firstRun?: RunRecord;
  evidence?: TestAlertEvidence | null;
};

/** Thread of an ongoing failure streak: replies go under `threadTs`, its parent is edited. */
export type FailureStreak = {
  threadTs: string;
  failedRuns: number;
  firstRunId: number;
  lastRunId: number;
  /** The first failed run: the parent keeps showing it while the streak goes on. */
  firstRun?: RunRecord;
  /** When the latest failure was seen (the parent's status line). */
  lastFailedAt?: string;
  /** The parent is a channel's outage message (shared by several tests): never edited by one. */
  grouped?: boolean;
  /** What the parent showed besides the run when it was posted: every edit shows it again. */
  evidence?: TestAlertEvidence | null;
};

/** How a test subscription speaks up (`/decipher subscribe test 101 after:3 …`). */
export type TestOptions = {
  /** What a flaky test's failures do: one long-lived thread, the digest only, or every alert. */
  flaky?: "thread" | "digest" | "alert";
  /** Alert only after this many failures in a row (default 1). */
  after?: number;
  /** Alert only for runs with this `triggeredBy` (e.g. `schedule`). */
  trigger?: string | null;
  /** The page the test guards: its alerts show production sessions there. */
  page?: string | null;
  /** Who a new failure pings (src/model/mention.ts): in the alert's first post only. */
  mention?: Mention | null;
};

/** Every option set: what `/decipher subscribe test` produces (src/kinds/test/options.ts). */
export type ResolvedTestOptions = Required<TestOptions>;

/** What an option a subscription does not set means (and what one made before options had). */
export const DEFAULT_TEST_OPTIONS: Readonly<ResolvedTestOptions> = {
  flaky: "thread",
  after: 1,
  trigger: null,
  page: null,
  mention: null,
};

/** A subscription's options with the defaults filled in, an explicit `undefined` included. */
export function resolveTestOptions(options: TestOptions | undefined): ResolvedTestOptions {
  return {
    flaky: options?.flaky ?? DEFAULT_TEST_OPTIONS.flaky,
    after: options?.after ?? DEFAULT_TEST_OPTIONS.after,
    trigger: options?.trigger ?? DEFAULT_TEST_OPTIONS.trigger,
    page: options?.page ?? DEFAULT_TEST_OPTIONS.page,
    mention: options?.mention ?? DEFAULT_TEST_OPTIONS.mention,
  };
}

/** A run as the baseline read it at subscribe time. */
export type BaselineRun = { id: number; status: string; createdAt: string; triggeredBy: string };

/** A part of an earlier poll's window that its capped read left unread (ISO times, `until` inclusive). */
export type UnreadWindow = { since: string; until: string };

export type TestSubscription = SubscriptionBase & {
  kind: "test";
  testId: number;
  testName: string;
  /**
   * When it was last unmuted: a failure that ended before then, not polled yet, happened while
   * it was muted, and is counted as muted, never posted after the Unmute.
   */
  unmutedAt?: string | null;
  /**
   * The newest settled run the ledger held when the state was last stored for another reason
   * (src/model/run-ledger.ts). A run alone does not store it: that would be a row written for
   * each pass (issue #35). The ledger, never this, decides what is new.
   */
  lastRunId: number;
  /** Its plausible `createdAt`, or null. */
  lastRunAt: string | null;
  streak: FailureStreak | null;
  /** Only on the way from `/decipher subscribe` to the object, which writes them into its ledger. */
  baselineRuns?: BaselineRun[];
  options?: TestOptions;
  /** Failures in a row not announced yet (`after:<n>`). */
  quietFailures?: number;
  /** `flaky:thread`: the day's thread for a flaky test's failures (UTC day `YYYY-MM-DD`). */
  flakyThread?: FlakyThread | null;
  /** A capped read left runs older than this unread: their failures are read on their own for an hour after it. */
  unreadSince?: string | null;
  /**
   * The part of an earlier window a capped read left unread (a backlog deeper than a poll
   * reads): its failed runs are read on their own, a poll's pages at a time, until none is left.
   */
  unreadFailures?: UnreadWindow | null;
  /** A failure held for a cycle's outage check: another cycle leaves it alone until `until`. */
  heldFor?: { cycle: string; until: string } | null;
  /**
   * Slack says the open alert (the streak's parent) no longer exists: a person deleted it. The
   * next step posts it again as a new alert that says so, and the thread goes on there.
   */
  parentGone?: string | null;
  /** The parent alert owes an edit (a later failure, or the pass that ended its streak). */
  parentEdit?: ParentEdit | null;
  /**
   * An edit of a parent Slack refused for now (a rate limit, no answer in time): made again at
   * the end of each poll until Slack takes it, so a parent never keeps saying what is no longer true.
   */
  owedEdit?: ParentEdit | null;
  /**
   * The day's "is flaky" alert (its ts) owes an edit: a snooze it showed ended. Kept until Slack
   * takes the edit, like `owedEdit`.
   */
  flakyEdit?: string | null;
  /** The last streak's parent, green: a snooze that outlives the streak is shown, and undone, there. */
  recoveredParent?: ParentEdit | null;
  /**
   * The latest outage message (its ts) that named a failure of this test: its last alert once
   * that streak ended, since an outage's parent is never one test's to turn green.
   */
  namedByOutage?: string | null;
  /** The latest failures counted and not posted (`after:`, `trigger:`, …), newest last: status shows a day of them. */
  counted?: CountedFailure[];
  /**
   * What the bot knows of the test's state, from its ledger at the last poll: the digest,
   * status and Home all say it in the same words (src/model/test-state.ts). Absent on copies
   * stored before it was kept, until their next poll.
   */
  stateFacts?: TestStateFacts;
  /** Failing when the channel subscribed: its next pass is told (src/model/failing-at-subscribe.ts). */
  failingAtSubscribe?: FailingAtSubscribe | null;
};

/**
 * The subscription without its acknowledgements: who is looking belongs to one alert, so a
 * streak that ends or a new alert starts with nobody looking.
 */
export function unacknowledged<S extends Subscription>(sub: S): S {
  if (!sub.acknowledgedBy) return sub;
  const { acknowledgedBy: _a, ...rest } = sub;
  return rest as S;
}

/** A failure the channel chose not to see posted, and when it was counted. */
export type CountedFailure = { runId: number; reason: string; at: string };

export type ParentEdit = { ts: string; streak: FailureStreak; recoveredBy?: { id: number; at: string } };

export type CollectionSubscription = SubscriptionBase & {
  kind: "collection";
  collectionId: number;
  rootCause: string;
  /** Sessions of growth that alert; null = the default (+5 or +50 %, whichever is smaller). */
  growth: number | null;
  /** Who a new alert pings (src/model/mention.ts): in its first post only, never in replies or edits. */
  mention?: Mention | null;
  /**
   * The count growth is measured from: `sessionCount` at the last alert or growth reply, or at
   * the subscription, an unmute, or a drop in the count (those tell the channel nothing).
   */
  alertedCount: number;
  /** When that was: the next alert shows sessions newer than this. */
  alertedAt: string;
  /**
   * The count the channel was last told, set only once Slack has the post, and the post that
   * told it (the alert, or a growth reply in its thread): the baseline above also moves without
   * a post, so it cannot say what the channel saw. Absent on copies stored before it existed.
   */
  told?: { count: number; at: string; ts: string } | null;
  /** The vendor's `isResolved` at the last look. */
  wasResolved: boolean;
  /** A regression was announced since the collection was last seen resolved. */
  regressed: boolean;
  /** Thread of the last alert; later growth replies there. */
  threadTs: string | null;
  /** What that alert's card showed first: it keeps its growth while later growth replies. */
  card?: {
    previousCount: number;
    regression: boolean;
    collection?: IssueCollection;
    /** What the card showed when it was posted: every edit shows it again. */
    evidence?: CollectionAlertEvidence;
    /** Slack refused the card's last count edit for now: the next poll edits it again. */
    editOwed?: boolean;
  } | null;
  /**
   * The collection's page (the vendor's `shortenedPath`), so a failing test's production
   * impact can name the collections on its page without asking Decipher. Absent on copies
   * stored before it existed.
   */
  path?: string;
  /**
   * `sessionCount` when each alert went out (the first: the count it grew from), oldest
   * first and bounded: the alert's growth chart, read from what the alerts already saw.
   */
  counts?: CountMark[];
};

/** A collection's `sessionCount` at one moment. */
export type CountMark = { at: string; count: number };

export type Subscription = TestSubscription | CollectionSubscription;

/** The subscription of one kind. */
export type SubscriptionOf<K extends SubscriptionKind> = Extract<Subscription, { kind: K }>;

/**
 * The workspace a subscription belongs to. Copies stored before workspaces were named carry
 * none: they are the single workspace's, as every address of theirs (object, KV, buttons) says.
 */
export function teamOf(sub: { teamId?: string }): string {
  return sub.teamId || DEFAULT_TEAM;
}

/**
 * A subscription as stored, in today's words: one stored before erring polls had their own
 * name kept their start as `failingSince`, which now means only a watched test's failing.
 */
export function storedSubscription<S extends Subscription>(stored: S): S {
  const { failingSince, ...rest } = stored as S & { failingSince?: string | null };
  if (failingSince === undefined) return stored;
  return { ...rest, erroringSince: stored.erroringSince ?? failingSince } as S;
}
