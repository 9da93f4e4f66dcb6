import type { TestInfo, TestRun } from "../decipher/types.ts";
import type { FailingAtSubscribe } from "../model/failing-at-subscribe.ts";
import type { FailureContext } from "../model/failure-context.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import type { LedgerRow } from "../model/run-ledger.ts";
import type { FailureStreak, FlakyThread, TestSubscription } from "../model/subscription.ts";
import type { TestClassification } from "../model/test-classification.ts";
import type { OutageGroup } from "./poll-context.ts";

export type TestPollInput = {
  sub: TestSubscription;
  /** The ledger as it stands, this poll's reads included. */
  rows: readonly LedgerRow[];
  /** Full runs read this poll, for the messages; a row without one is told from what the ledger holds. */
  runs: ReadonlyMap<number, TestRun>;
  test: TestInfo;
  /** What a new failure means (history, class, production); read only when one may open a streak. */
  meaning: FailureContext | null;
  appUrl: string;
  now: Date;
  /** The first look of a cron cycle: a failure that would open a new alert is held for the outage check. */
  hold: boolean;
  /** The channel's outage message named these runs: they adopt it as their thread. */
  group: OutageGroup | null;
  /** The cron cycle this poll belongs to (default: this poll): a held failure is that cycle's to settle. */
  cycle?: string;
  /**
   * The outbox's keys, sent or not. A failure whose own alert Slack may already hold (an
   * outcome unknown, or found after a lost answer before its fate was recorded) is told
   * through the outbox, which finds it, never held for an outage message that would name it again.
   */
  inOutbox?: ReadonlySet<string>;
  /**
   * Overdue failures the channel keeps waiting: a message of its that may name them has an
   * unknown outcome (src/objects/channel-object.ts `claim`). Told once that is settled.
   */
  waitingOnChannel?: ReadonlySet<number>;
  /** Whether the state's owed edit (`owedEdit`) is tried in this step: not again in a poll where it failed. */
  retryOwedEdit?: boolean;
};

/** How long a failure held for one cycle's outage check waits for that cycle's answer. */
export const HOLD_FOR_MS = 60_000;

/** What the state becomes: fates to record and the subscription to store. */
export type Change = { sub: TestSubscription; rows: LedgerRow[] };

/**
 * What a post or an edit says, in the engine's words: which runs it tells and in what state,
 * never Block Kit. src/engine/render-test-step.ts turns it into the message Slack gets.
 */
export type TestMessage =
  /** A streak's parent, new or as it reads now: its first failure, its count, its recovery. */
  | {
      kind: "failure-alert";
      sub: TestSubscription;
      streak: FailureStreak;
      /** The pass that ended the streak, shown green. */
      recoveredBy: TestRun | null;
      /** The streak's first post: the only one that carries `mention:`. */
      ping: boolean;
      /** Posted green: the failure and the pass right after it, seen in one look. */
      passedNext: boolean;
    }
  /** The day's "is flaky" alert, new or as it reads now. */
  | { kind: "flaky-alert"; sub: TestSubscription; flaky: FlakyThread }
  /** A reply in a streak's thread: these failures (oldest first), and the pass that ended them, if read with them. */
  | {
      kind: "streak-reply";
      runs: TestRun[];
      failedRuns: number;
      recoveredBy: TestRun | null;
      /** The thread is an outage message's. */
      named: boolean;
    }
  /** A reply in a streak's thread: the test passed again after `failedRuns` failures. */
  /** `rerun`: the pass is a failed run of the streak, rerun under its id. */
  | { kind: "recovery"; run: TestRun; failedRuns: number; rerun: boolean }
  /** A reply in the day's flaky thread: one more failure, and its class as of that run. */
  | { kind: "flaky-reply"; run: TestRun; through: TestClassification | undefined }
  /** The first pass after the failing the channel subscribed to (src/model/failing-at-subscribe.ts). */
  | { kind: "passed-since-subscribe"; run: TestRun; was: FailingAtSubscribe }
  /** A snooze ran out: how many failures it held, and whether the test's last run failed. */
  | { kind: "snooze-ended"; by: string; missedFailures: number; lastFailed: boolean };

/**
 * The next thing a poll does. Only `post` talks to Slack; its `delivered` says what the ledger
 * and the state become once Slack has the message (with its ts). Every fate that needs a
 * message is recorded only through `delivered`, so a run is never told without a record and
 * never recorded as told without the message.
 */
export type TestStep =
  | { kind: "done"; change: Change }
  | { kind: "hold"; change: Change; held: HeldFailure }
  | {
      kind: "post";
      /** Recorded before the post: decisions that needed no message. */
      change: Change;
      /** The idempotency key: the same message decided twice carries the same key. */
      key: string;
      message: TestMessage;
      /** Told after it was due: when the bot first saw the run, which the post says. */
      lateSince?: string;
      /** It stands in for an alert a person deleted, and says so. */
      replacesDeleted?: boolean;
      threadTs?: string;
      delivered: (ts: string) => Change;
    }
  | {
      kind: "edit";
      change: Change;
      ts: string;
      message: TestMessage;
      /** Once Slack took the edit, or refused it for good. */
      after: Change;
      /** What the state keeps when Slack refuses the edit for now, so the next poll makes it. */
      owed: Pick<TestSubscription, "owedEdit"> | Pick<TestSubscription, "flakyEdit">;
    };
