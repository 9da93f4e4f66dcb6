/** What a channel watches, as stored in KV. Dates are ISO strings. */

export type Paused = { reason: string; at: string };
export type LastError = { message: string; at: string };

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
  /** Highest run id seen; runs above it are new. */
  lastRunId: number;
  /** Runs seen `running` that may still fail. */
  pendingRunIds: number[];
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
  wasResolved: boolean;
  /** Thread of the last alert; later growth replies there. */
  threadTs: string | null;
};

export type Subscription = TestSubscription | CollectionSubscription;
