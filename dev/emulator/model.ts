/**
 * The emulator's internal records. Times are epoch milliseconds here and become ISO 8601
 * strings only when rendered (views.ts), so filtering and ordering are plain number compares.
 */
export type TemplateName = "acme" | "globex";
export type RunStatus = "passed" | "failed" | "running";
/** "cycle": the four-step demo of every alert path; "noisy": flapping tests, an outage, page traffic. */
export type ScenarioName = "cycle" | "noisy";

export type TestRecord = { id: number; name: string; steps: number };

export type RunRecord = {
  id: number;
  testId: number;
  status: RunStatus;
  createdAt: number;
  startTime: number;
  endTime: number | null;
  durationMs: number | null;
  triggeredBy: string;
  summary: { oneLineSummary: string; firstFailedStepNumber: number | null } | null;
  totalSteps: number;
  failedSteps: number;
  /** Wire fields served as given instead of the record's (control API), e.g. a malformed run. */
  raw?: Record<string, unknown>;
};

export type TimelineRecord = {
  overview: string;
  tags: { tag: string; reasoning: string }[];
  pages: {
    page: string;
    startTime: number;
    endTime: number;
    clickCount: number;
    featuresUsed: string[];
    activities: {
      startTime: string;
      endTime: string;
      summary: string;
      userAction: string;
      userBehavior: string;
    }[];
  }[];
  loadingIssues: {
    description: string;
    longDescription: string;
    durationInSeconds: number;
    timestamp: number;
  }[];
};

export type ClickRecord = {
  id: number;
  type: string;
  /** Seconds into the session. */
  timestamp: number;
  clickCount: number;
  navigationTo: string;
  clickText: string;
  clickTag: string;
  clickCssClass: string;
};

export type UserProfile = {
  userEmail: string;
  userId: string;
  userAccount: string;
  userUsername: string;
  userPlan: string;
  userRole: string;
  countryCode: string;
};

export type SessionRecord = UserProfile & {
  id: string;
  createdAt: number;
  /** Seconds; null while the session is still being recorded. */
  duration: number | null;
  browser: string;
  device: string;
  /** Full URLs visited; what the `url` filter matches against. */
  visitedUrls: string[];
  timeline: TimelineRecord | null;
  clicks: ClickRecord[];
};

export type AiSummary = {
  category: string;
  behavior: string;
  productFeature: string;
  errorText: string;
  reasoning: string;
};

export type MemberRecord = {
  sessionId: string;
  errorCount: number;
  errorId: string;
  latestIssueAt: number;
  aiSummary: AiSummary;
};

export type CollectionRecord = {
  id: number;
  type: string;
  rootCause: string;
  shortenedPath: string;
  fullPath: string;
  createdAt: number;
  isResolved: boolean;
  members: MemberRecord[];
};

export type Org = {
  id: string;
  name: string;
  apiKey: string;
  template: TemplateName;
  /** The customer's own web app, whose pages the sessions visit. */
  siteUrl: string;
  /** Which simulation script ticks follow (simulation.ts); absent = "cycle". */
  scenario?: ScenarioName;
  tests: TestRecord[];
  runs: RunRecord[];
  sessions: SessionRecord[];
  collections: CollectionRecord[];
  users: UserProfile[];
  next: { run: number; test: number; click: number };
  /** Saved PRNG state of this org's simulation stream and how many ticks it has taken. */
  sim: { rngState: number; ticks: number };
  /** Order of test-run lists; the documented default is newest first (control API). */
  listOrder?: "newest" | "oldest";
  /** Authenticated API requests by route name. */
  requests: Record<string, number>;
};
