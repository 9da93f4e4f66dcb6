import type {
  CollectionSession,
  IssueCollection,
  SessionClicks,
  SessionSummary,
  SessionTimeline,
  TestInfo,
  TestRun,
  TimelineBody,
} from "../../src/decipher/types.ts";

export const APP = "https://app.getdecipher.com";
export const NOW = new Date("2026-02-16T12:00:00.000Z");
export const SESSION_ID = "3f2b8c1e-5d4a-4c7b-9e2f-1a2b3c4d5e6f";

export function aSession(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    object: "session",
    id: SESSION_ID,
    url: `${APP}/sessions/${SESSION_ID}`,
    createdAt: "2026-02-16T09:00:00.000Z",
    duration: 723,
    userEmail: "jane@acme.com",
    userId: "u_42",
    userAccount: "Acme",
    browser: "Chrome",
    device: "Desktop",
    countryCode: "DE",
    hasTimeline: true,
    ...overrides,
  };
}

export function aTimelineBody(overrides: Partial<TimelineBody> = {}): TimelineBody {
  return {
    overview: "Jane added two items to the cart and was stuck on the payment step.",
    tags: [
      { tag: "checkout", reasoning: "visited /checkout" },
      { tag: "rage-click", reasoning: "clicked Pay 5 times" },
    ],
    pages: [
      {
        page: "/cart",
        startTime: 0,
        endTime: 83,
        clickCount: 4,
        featuresUsed: ["cart"],
        activities: [
          {
            startTime: "0:00",
            endTime: "0:40",
            summary: "Reviewed the cart",
            userAction: "scroll",
            userBehavior: "calm",
          },
        ],
      },
      {
        page: "/checkout",
        startTime: 83,
        endTime: 700,
        clickCount: 9,
        featuresUsed: ["payment"],
        activities: [
          {
            startTime: "1:23",
            endTime: "2:00",
            summary: "Clicked Pay repeatedly",
            userAction: "click",
            userBehavior: "frustrated",
          },
        ],
      },
    ],
    loadingIssues: [
      { description: "Payment form slow", longDescription: "…", durationInSeconds: 4.2, timestamp: 90 },
    ],
    ...overrides,
  };
}

export function aTimeline(overrides: Partial<SessionTimeline> = {}): SessionTimeline {
  return { object: "sessionTimeline", sessionId: SESSION_ID, ...aTimelineBody(), ...overrides };
}

export function someClicks(overrides: Partial<SessionClicks> = {}): SessionClicks {
  return {
    object: "sessionClicks",
    sessionId: SESSION_ID,
    screenshotsExpiresAt: "2026-02-16T15:00:00.000Z",
    data: [
      {
        id: 1,
        type: "click",
        timestamp: 83,
        clickCount: 5,
        navigationTo: null,
        screenshots: { before: "https://shots.test/1-before.png", after: "https://shots.test/1-after.png" },
        clickText: "Pay now",
        clickTag: "button",
      },
      {
        id: 2,
        type: "click",
        timestamp: 120,
        clickCount: 1,
        navigationTo: "/help",
        screenshots: null,
      },
    ],
    ...overrides,
  };
}

export const aTest: TestInfo = { id: 7, name: "Checkout works", url: `${APP}/tests/7` };

export function aRun(overrides: Partial<TestRun> = {}): TestRun {
  return {
    object: "testRun",
    id: 1234,
    testId: 7,
    status: "failed",
    startTime: "2026-02-16T11:50:00.000Z",
    endTime: "2026-02-16T11:52:05.000Z",
    durationMs: 125_000,
    triggeredBy: "schedule",
    createdAt: "2026-02-16T11:50:00.000Z",
    summary: { oneLineSummary: "Pay button did nothing", firstFailedStepNumber: 3 },
    totalSteps: 7,
    failedSteps: 2,
    ...overrides,
  };
}

export function aCollection(overrides: Partial<IssueCollection> = {}): IssueCollection {
  return {
    id: 55,
    type: "error",
    rootCause: "Stripe iframe fails to load",
    shortenedPath: "/checkout",
    createdAt: "2026-02-10T00:00:00.000Z",
    isResolved: false,
    errorCount: 31,
    sessionCount: 20,
    estimatedUsers: 14,
    ...overrides,
  };
}

export function aCollectionSession(overrides: Partial<CollectionSession> = {}): CollectionSession {
  return {
    ...aSession(),
    userUsername: "jane",
    userPlan: "pro",
    userRole: "admin",
    representativeIssue: {
      errorId: "9a8b7c6d-0000-4000-8000-000000000001",
      latestIssueAt: "2026-02-16T11:00:00.000Z",
      shortenedPath: "/checkout",
      fullPath: "https://shop.test/checkout",
      aiSummary: {
        category: "Payment",
        behavior: "User cannot pay",
        productFeature: "Checkout",
        errorText: "Failed to load Stripe.js",
        reasoning: "The iframe request timed out",
      },
    },
    timeline: aTimelineBody(),
    errorScreenshots: { main: "https://shots.test/err.png", after: "https://shots.test/err-after.png" },
    ...overrides,
  };
}
