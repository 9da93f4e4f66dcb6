/** What a channel watches, as stored in KV. Dates are ISO strings. */

export type Paused = { reason: string; at: string };
export type LastError = {
  message: string;
  at: string;
  /** Who failed: a Slack outage backs off, a vendor one is retried every cycle. */
  source?: "slack" | "vendor";
};

type SubscriptionBase = {
  channelId: string;
  createdAt: string;
  createdBy: string;
  /** Set when Slack refuses the channel for good; the cron skips it until re-subscribed. */
  paused: Paused | null;
  lastError: LastError | null;
  /** Last time the stored state changed (an alert, a baseline move, an error). */
  lastChangeAt: string;
};

/** Thread of an ongoing failure streak: replies go under `threadTs`, its parent is edited. */
export type FailureStreak = {
  threadTs: string;
  failedRuns: number;
  firstRunId: number;
  lastRunId: number;
};

export type TestSubscription = SubscriptionBase & {
  kind: "test";
  testId: number;
  testName: string;
  /**
   * Watermark: every run with an id up to this one is settled (announced, or needing no
   * post). Runs above it are looked at each poll; a run still `running` holds it back.
   */
  lastRunId: number;
  /** `createdAt` of that run: polls ask for runs since shortly before it, whatever the API's order. */
  lastRunAt: string | null;
  /** Runs above the watermark that are already settled (announced, or there before subscribing). */
  handledRunIds: number[];
  streak: FailureStreak | null;
};

export type CollectionSubscription = SubscriptionBase & {
  kind: "collection";
  collectionId: number;
  rootCause: string;
  /** Sessions of growth that alert; null = the default (+5 or +50 %, whichever is smaller). */
  growth: number | null;
  /** `sessionCount` when the last alert (or the subscription) happened. */
  alertedCount: number;
  /** When that was: the next alert shows sessions newer than this. */
  alertedAt: string;
  /** The vendor's `isResolved` at the last look. */
  wasResolved: boolean;
  /** A regression was announced since the collection was last seen resolved. */
  regressed: boolean;
  /** Thread of the last alert; later growth replies there. */
  threadTs: string | null;
};

export type Subscription = TestSubscription | CollectionSubscription;
