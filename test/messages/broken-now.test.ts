import { describe, expect, it } from "vitest";
import { brokenNowMessage, growthInDay } from "../../src/messages/broken-now.ts";
import type { CollectionSubscription, TestSubscription } from "../../src/model/subscription.ts";
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
    expect(answer).toContain("+43 sessions in the last 24 hours");
    expect(answer).toContain("collections/501");
  });

  it("counts growth from the last count before the day, not from the collection's first alert", () => {
    expect(growthInDay(collection(), NOW)).toBe(43);
    expect(growthInDay(collection({ wasResolved: true }), NOW)).toBe(0);
    expect(growthInDay(collection({ counts: [{ at: hoursAgo(30), count: 100 }] }), NOW)).toBe(0);
  });

  it("says the watched collections are quiet too when nothing is failing or growing", () => {
    const quiet = collection({ counts: [{ at: hoursAgo(30), count: 100 }] });
    const answer = ask([passingTest(101), quiet]).text;
    expect(answer).toBe(
      "Nothing is failing here: 1 watched test, none failing at its last run; 1 watched collection, none regressed or growing in the last 24 hours.",
    );
  });
});
