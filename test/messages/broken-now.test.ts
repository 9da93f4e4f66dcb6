import { describe, expect, it } from "vitest";
import { brokenNowMessage, recentGrowth } from "../../src/messages/broken-now.ts";
import { testStateLine } from "../../src/messages/test-state-line.ts";
import type { CollectionSubscription, TestSubscription } from "../../src/model/subscription.ts";
import type { TestStateFacts } from "../../src/model/test-state.ts";
import { APP, NOW } from "./fixtures.ts";

const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000).toISOString();

function collection(over: Partial<CollectionSubscription> = {}): CollectionSubscription {
  return {
    kind: "collection",
    channelId: "C0DEMO",
    createdAt: hoursAgo(48),
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: hoursAgo(48),
    collectionId: 501,
    rootCause: "Checkout button does nothing",
    growth: null,
    alertedCount: 143,
    alertedAt: hoursAgo(1),
    wasResolved: false,
    regressed: false,
    threadTs: "1732200000.000200",
    counts: [
      { at: hoursAgo(30), count: 100 },
      { at: hoursAgo(10), count: 120 },
      { at: hoursAgo(1), count: 143 },
    ],
    ...over,
  };
}

const passingTest = (testId: number): TestSubscription =>
  ({
    kind: "test",
    channelId: "C0DEMO",
    createdAt: hoursAgo(48),
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: hoursAgo(48),
    testId,
    testName: `Test ${testId}`,
    lastRunId: 1,
    streak: null,
  }) as unknown as TestSubscription;

const ask = (subscriptions: (TestSubscription | CollectionSubscription)[]) =>
  brokenNowMessage({ subscriptions, appUrl: APP, teamUrl: null, lastPollAt: NOW.toISOString(), now: NOW });

const textOf = (m: { text: string; blocks: unknown[] }) => `${m.text}\n${JSON.stringify(m.blocks)}`;

describe("what is broken right now", () => {
  it("names an unresolved collection that grew in the last 24 hours instead of saying nothing is failing", () => {
    const answer = textOf(ask([passingTest(101), passingTest(102), passingTest(103), collection()]));
    expect(answer).not.toContain("Nothing is failing");
    expect(answer).toContain("1 collection growing");
    expect(answer).toContain(`+43 sessions between <!date^${Date.parse(hoursAgo(30)) / 1000}^`);
    expect(answer).not.toContain("in the last 24 hours (");
    expect(answer).toContain("collections/501");
  });

  it("names the true start and end of each growth: from the last count before the day, or the first of it when subscribed within the day, to the latest count told", () => {
    expect(recentGrowth(collection(), NOW)).toMatchObject({ grew: 43, since: hoursAgo(30) });
    expect(recentGrowth(collection({ wasResolved: true }), NOW)).toBeNull();
    expect(recentGrowth(collection({ counts: [{ at: hoursAgo(30), count: 100 }] }), NOW)).toBeNull();
    const subscribedToday = collection({
      counts: [
        { at: hoursAgo(5), count: 18 },
        { at: hoursAgo(1), count: 53 },
      ],
    });
    expect(recentGrowth(subscribedToday, NOW)).toEqual({ grew: 35, since: hoursAgo(5), until: hoursAgo(1) });
    expect(textOf(ask([subscribedToday]))).toMatch(
      new RegExp(
        `\\+35 sessions between <!date\\^${Date.parse(hoursAgo(5)) / 1000}\\^[^>]*> and <!date\\^${Date.parse(hoursAgo(1)) / 1000}\\^`,
      ),
    );
  });

  it("names every test that is not passing, in the status's state words: failing on and off, and flaky with its last run failed", () => {
    const facts = (over: Partial<TestStateFacts>): TestStateFacts => ({
      kind: "passing",
      trailingFailures: 0,
      passesBefore: 0,
      failingOnAndOff: false,
      anyRun: true,
      failingStreak: false,
      calledFlakyAt: null,
      ...over,
    });
    const onAndOff = facts({ failingOnAndOff: true });
    const flakyRed = facts({ kind: "flaky", trailingFailures: 1, calledFlakyAt: hoursAgo(2) });
    const flakyGreen = facts({ kind: "flaky", trailingFailures: 0, calledFlakyAt: hoursAgo(2) });
    const withFacts = (id: number, f: TestStateFacts) =>
      ({ ...passingTest(id), stateFacts: f }) as TestSubscription;
    const answer = ask([withFacts(101, onAndOff), withFacts(102, flakyRed), withFacts(103, flakyGreen)]);
    const all = textOf(answer);
    expect(answer.text).toBe("2 tests not passing: Test 101, Test 102");
    expect(all).toContain(JSON.stringify(testStateLine(onAndOff)).slice(1, -1));
    expect(all).toContain(JSON.stringify(testStateLine(flakyRed)).slice(1, -1));
    expect(all).not.toContain("tests/103|");
  });

  it("says the watched collections are quiet too when nothing is failing or growing", () => {
    const quiet = collection({ counts: [{ at: hoursAgo(30), count: 100 }] });
    const answer = ask([passingTest(101), quiet]).text;
    expect(answer).toBe(
      "Nothing is failing here: 1 watched test, none failing, broken, or flaky with its last run failed; 1 watched collection, none regressed or growing in the last 24 hours.",
    );
  });
});
