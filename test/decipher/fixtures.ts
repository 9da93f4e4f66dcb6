/** Response bodies shaped like the vendor's examples (docs/decipher-api.md). */
import type {
  CollectionSession,
  CollectionSessionList,
  SessionClicks,
  SessionSummary,
  SessionTimeline,
  TestRun,
  TestRunList,
} from "../../src/decipher/types.ts";

export const SESSION_ID = "3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f80";

export function testRun(id: number, overrides: Partial<TestRun> = {}): TestRun {
  return {
    object: "testRun",
    id,
    testId: 101,
    status: "failed",
    startTime: "2026-02-16T05:00:00.000Z",
    endTime: "2026-02-16T05:01:30.000Z",
    durationMs: 90_000,
    triggeredBy: "schedule",
    createdAt: "2026-02-16T05:00:00.000Z",
    summary: { oneLineSummary: "Checkout button did nothing", firstFailedStepNumber: 4 },
    totalSteps: 9,
    failedSteps: 1,
    ...overrides,
  };
}

export function testRunList(runs: TestRun[], more: { hasMore?: boolean; nextCursor?: string | null } = {}) {
  return {
    object: "list",
    data: runs,
    hasMore: more.hasMore ?? false,
    nextCursor: more.nextCursor ?? null,
    test: { id: 101, name: "Checkout flow", url: "https://app.getdecipher.com/tests/101" },
  } satisfies TestRunList;
}

export function session(id: string, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    object: "session",
    id,
    url: `https://app.getdecipher.com/sessions/${id}`,
    createdAt: "2026-02-16T05:00:00.000Z",
    duration: 312,
    userEmail: "jane@acme.com",
    userId: "u_123",
    userAccount: "Acme",
    browser: "Chrome",
    device: "Desktop",
    countryCode: "US",
    hasTimeline: true,
    ...overrides,
  };
}

export function collectionSession(id: string, overrides: Partial<CollectionSession> = {}): CollectionSession {
  const { object: _, ...base } = session(id);
  return {
    ...base,
    object: "session",
    userUsername: "jane",
    userPlan: "pro",
    userRole: "admin",
    representativeIssue: {
      errorId: "9b2e4c1a-1111-4222-8333-444455556666",
      latestIssueAt: "2026-02-16T05:02:00.000Z",
      shortenedPath: "/checkout",
      fullPath: "https://acme.com/checkout?step=2",
      aiSummary: {
        category: "Functional",
        behavior: "Button unresponsive",
        productFeature: "Checkout",
        errorText: "TypeError: cart is undefined",
        reasoning: "Clicks produced no navigation",
      },
    },
    errorScreenshots: { main: "https://cdn.example/s/main.png", after: null },
    ...overrides,
  };
}

export function collectionSessionList(
  sessions: CollectionSession[],
  more: { hasMore?: boolean; nextCursor?: string | null } = {},
): CollectionSessionList {
  return {
    object: "list",
    collection: {
      id: 501,
      type: "error",
      rootCause: "cart is undefined",
      shortenedPath: "/checkout",
      createdAt: "2026-02-10T00:00:00.000Z",
      isResolved: false,
      errorCount: 40,
      sessionCount: 12,
      estimatedUsers: 9,
    },
    data: sessions,
    includes: [],
    hasMore: more.hasMore ?? false,
    nextCursor: more.nextCursor ?? null,
    window: { since: "2026-02-15T05:00:00.000Z", until: "2026-02-16T05:00:00.000Z" },
    screenshotsExpiresAt: null,
  };
}

export function timeline(sessionId = SESSION_ID): SessionTimeline {
  return {
    object: "sessionTimeline",
    sessionId,
    overview: "Jane added two items and tried to pay twice.",
    tags: [{ tag: "frustration", reasoning: "rage clicks on Pay" }],
    pages: [
      {
        page: "/checkout",
        startTime: 12.5,
        endTime: 80,
        clickCount: 7,
        featuresUsed: ["cart"],
        activities: [
          {
            startTime: "00:12",
            endTime: "00:40",
            summary: "Filled the form",
            userAction: "typing",
            userBehavior: "calm",
          },
        ],
      },
    ],
    loadingIssues: [
      { description: "Slow", longDescription: "Pay took 6 s", durationInSeconds: 6.1, timestamp: 70 },
    ],
  };
}

export function clicks(sessionId = SESSION_ID): SessionClicks {
  return {
    object: "sessionClicks",
    sessionId,
    data: [
      {
        id: 1,
        type: "click",
        timestamp: 71.2,
        clickCount: 3,
        navigationTo: null,
        screenshots: { before: "https://cdn.example/b.png", after: "https://cdn.example/a.png" },
      },
    ],
    screenshotsExpiresAt: "2026-02-16T08:00:00.000Z",
  };
}
