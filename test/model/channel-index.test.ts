import { describe, expect, it } from "vitest";
import { indexCopy, indexEntry, stateOf } from "../../src/model/channel-index.ts";
import { storedSubscription, type TestSubscription } from "../../src/model/subscription.ts";

const AT = "2026-11-24T09:00:00.000Z";
const NOW = new Date("2026-11-24T10:00:00.000Z");

const aTest = (over: Partial<TestSubscription> = {}): TestSubscription => ({
  kind: "test",
  channelId: "C0ALERTS",
  createdAt: AT,
  createdBy: "U0ALICE",
  paused: null,
  lastError: null,
  lastChangeAt: AT,
  testId: 101,
  testName: "Checkout works",
  lastRunId: 10,
  lastRunAt: AT,
  streak: null,
  ...over,
});

/** A message's ts as Slack gives it: the Unix time it was stored. */
const tsAt = (iso: string) => `${Date.parse(iso) / 1000}.000100`;
/** The alert was posted a few minutes after the run it announces failed. */
const POSTED = "2026-11-24T09:05:00.000Z";

const failing = aTest({
  streak: { threadTs: tsAt(POSTED), failedRuns: 2, firstRunId: 9, lastRunId: 10, lastFailedAt: AT },
});

describe("a channel index row", () => {
  it("names the state a person acts on first: paused, then muted, then snoozed, then failing", () => {
    const snooze = {
      by: "U0BOB",
      at: AT,
      until: null,
      choice: { kind: "until-pass" as const },
      missedFailures: 0,
      countAtStart: null,
    };
    expect(stateOf(aTest(), NOW)).toBe("ok");
    expect(stateOf(failing, NOW)).toBe("failing");
    expect(stateOf({ ...failing, snooze }, NOW)).toBe("snoozed");
    expect(stateOf({ ...failing, snooze, muted: { by: "U0BOB", at: AT } }, NOW)).toBe("muted");
    expect(
      stateOf({ ...failing, muted: { by: "U0BOB", at: AT }, paused: { reason: "gone", at: AT } }, NOW),
    ).toBe("paused");
    // A timed snooze that ended no longer counts.
    expect(stateOf({ ...failing, snooze: { ...snooze, until: AT } }, NOW)).toBe("failing");
  });

  it("keeps the last alert after the streak that made it ends", () => {
    const during = indexEntry(failing, NOW);
    expect(during.lastAlert).toEqual({ ts: tsAt(POSTED), at: POSTED });
    const after = indexEntry(aTest(), NOW, during);
    expect(after.state).toBe("ok");
    expect(after.lastAlert).toEqual(during.lastAlert);
  });

  it("carries no first-run summary or evidence: 200 rows stay one small answer", () => {
    const heavy = aTest({
      streak: {
        ...(failing.streak as NonNullable<TestSubscription["streak"]>),
        evidence: { strip: "x".repeat(5000) } as never,
      },
      parentEdit: { ts: "1.2", streak: failing.streak as never },
    });
    const copy = indexCopy(heavy) as TestSubscription;
    expect(JSON.stringify(copy).length).toBeLessThan(1000);
    expect(copy.streak?.failedRuns).toBe(2);
    expect(copy.parentEdit).toBeUndefined();
  });

  describe("its last alert is a message that exists, at the time it was posted", () => {
    it("the outage message that named the failure, at its own time, not the run's", () => {
      const outageAt = "2026-11-24T09:12:15.000Z";
      const grouped = aTest({
        streak: {
          threadTs: tsAt(outageAt),
          failedRuns: 1,
          firstRunId: 9,
          lastRunId: 9,
          lastFailedAt: "2026-11-24T09:11:00.000Z",
          grouped: true,
        },
      });
      expect(indexEntry(grouped, NOW).lastAlert).toEqual({ ts: tsAt(outageAt), at: outageAt });
    });

    it("the day's flaky thread of a test whose failures went there", () => {
      const flakyAt = "2026-11-24T09:13:40.000Z";
      const flaky = aTest({ flakyThread: { ts: tsAt(flakyAt), day: "2026-11-24" } });
      expect(indexEntry(flaky, NOW).lastAlert).toEqual({ ts: tsAt(flakyAt), at: flakyAt });
    });

    it("an alert posted already green (a failure and its pass seen in one look)", () => {
      const greenAt = "2026-11-24T09:20:00.000Z";
      const green = aTest({
        recoveredParent: {
          ts: tsAt(greenAt),
          streak: { threadTs: tsAt(greenAt), failedRuns: 1, firstRunId: 9, lastRunId: 9, lastFailedAt: AT },
          recoveredBy: { id: 10, at: AT },
        },
      });
      expect(indexEntry(green, NOW).lastAlert).toEqual({ ts: tsAt(greenAt), at: greenAt });
    });

    it("a row stored with a run's time is read at its message's time", () => {
      const old = { ...indexEntry(failing, NOW), lastAlert: { ts: tsAt(POSTED), at: AT } };
      expect(indexEntry(aTest(), NOW, old).lastAlert).toEqual({ ts: tsAt(POSTED), at: POSTED });
    });
  });
});

describe("a subscription stored before erring polls had their own name", () => {
  it("keeps when its polls began to err, read as `erroringSince`", () => {
    const lastTry = "2026-11-24T09:30:00.000Z";
    const stored = {
      ...aTest({ lastError: { message: "Decipher did not answer in time", at: lastTry, source: "vendor" } }),
      failingSince: AT,
    };
    const read = storedSubscription(stored);
    expect(read.erroringSince).toBe(AT);
    expect("failingSince" in read).toBe(false);
    expect(indexEntry(read, NOW).failingSince).toBe(AT);
    expect(storedSubscription(aTest())).toEqual(aTest());
  });
});
