/**
 * Resources of the Decipher read API, field names exactly as the vendor writes
 * them. Nullable where the vendor documents null (docs/decipher-api.md); optional where a field
 * only appears on request (`include`).
 */

export type TestRunStatus = "passed" | "failed" | "running";
export type TestRunStatusFilter = TestRunStatus | "all";
export type CollectionInclude = "timeline" | "clicks" | "screenshots";

export type ListEnvelope<T> = {
  object: "list";
  data: T[];
  hasMore: boolean;
  /** Absent or null on the last page. */
  nextCursor: string | null;
};

export type TestRunSummary = {
  oneLineSummary: string;
  firstFailedStepNumber: number | null;
};

export type TestRun = {
  object: "testRun";
  id: number;
  testId: number;
  status: TestRunStatus;
  startTime: string;
  /** Null while the run is still running. */
  endTime: string | null;
  durationMs: number | null;
  triggeredBy: string;
  createdAt: string;
  summary: TestRunSummary | null;
  totalSteps: number;
  failedSteps: number;
};

export type TestInfo = {
  id: number;
  name: string;
  /** `{app_url}/tests/<test_id>` */
  url: string;
};

export type TestRunList = ListEnvelope<TestRun> & { test: TestInfo };

/** A run of a page that did not match the documented shape: where it was and what was wrong. */
export type RejectedRun = { index: number; id: number | null; field: string; message: string };

/** A page of runs as the client returns it: the readable runs, and the ones set aside. */
export type TestRunPage = TestRunList & { rejected: RejectedRun[] };

export type SessionSummary = {
  object: "session";
  /** UUID */
  id: string;
  /** `{app_url}/sessions/<session_id>` */
  url: string;
  createdAt: string;
  /** Unit unknown (docs/decipher-api.md, "Units"): see `units.ts`. */
  duration: number | null;
  userEmail: string | null;
  userId: string | null;
  userAccount: string | null;
  browser: string | null;
  device: string | null;
  countryCode: string | null;
  hasTimeline: boolean;
};

export type SessionList = ListEnvelope<SessionSummary>;

export type TimelineTag = { tag: string; reasoning: string };

export type TimelineActivity = {
  startTime: string;
  endTime: string;
  summary: string;
  userAction: string;
  userBehavior: string;
};

export type TimelinePage = {
  page: string;
  /** Unit unknown: see `units.ts`. */
  startTime: number;
  endTime: number;
  clickCount: number;
  featuresUsed: string[];
  activities: TimelineActivity[];
};

export type LoadingIssue = {
  description: string;
  longDescription: string;
  durationInSeconds: number;
  /** Unit unknown: see `units.ts`. */
  timestamp: number;
};

export type TimelineBody = {
  overview: string;
  tags: TimelineTag[];
  pages: TimelinePage[];
  loadingIssues: LoadingIssue[];
};

export type SessionTimeline = TimelineBody & {
  object: "sessionTimeline";
  sessionId: string;
};

export type ClickScreenshots = {
  /** Time-limited URLs (about 3 h). */
  before: string | null;
  after: string | null;
};

export type Click = {
  id: number;
  type: string;
  /** Unit unknown: see `units.ts`. */
  timestamp: number;
  clickCount: number;
  navigationTo: string | null;
  screenshots: ClickScreenshots | null;
  /** Seen in one version of the vendor reference only. */
  clickText?: string | null;
  clickTag?: string | null;
  clickCssClass?: string | null;
};

export type SessionClicks = {
  object: "sessionClicks";
  sessionId: string;
  data: Click[];
  screenshotsExpiresAt: string | null;
};

export type AiSummary = {
  category: string;
  behavior: string;
  productFeature: string;
  errorText: string;
  reasoning: string;
};

export type RepresentativeIssue = {
  errorId: string;
  latestIssueAt: string;
  shortenedPath: string;
  fullPath: string;
  aiSummary: AiSummary | null;
};

export type CollectionSession = Omit<SessionSummary, "object"> & {
  object: "session";
  userUsername: string | null;
  userPlan: string | null;
  userRole: string | null;
  representativeIssue: RepresentativeIssue | null;
  /** Only with `include=timeline`. */
  timeline?: TimelineBody;
  /** Only with `include=clicks` (or `screenshots`). */
  clicks?: Click[];
  errorScreenshots?: { main: string | null; after: string | null } | null;
};

export type IssueCollection = {
  id: number;
  type: string;
  rootCause: string;
  shortenedPath: string;
  createdAt: string;
  isResolved: boolean;
  errorCount: number;
  sessionCount: number;
  estimatedUsers: number;
};

export type CollectionSessionList = ListEnvelope<CollectionSession> & {
  collection: IssueCollection;
  includes: CollectionInclude[];
  window: { since: string; until: string };
  screenshotsExpiresAt: string | null;
};

/** Body of every failed request. */
export type VendorErrorBody = {
  error: {
    type: string;
    code?: string;
    message?: string;
    field?: string | null;
  };
};
