import type { CollectionRecord, MemberRecord, Org, RunRecord, SessionRecord, TestRecord } from "./model.ts";
import type { Include } from "./params.ts";

/** Records → wire objects, field names and order exactly as the vendor writes them (docs/decipher-api.md). */
export type ViewContext = { appUrl: string; now: number };

/** Screenshot URLs work for 3 hours, as the vendor's do (`screenshotsExpiresAt`). */
export const SCREENSHOT_TTL_MS = 3 * 3_600_000;

/** Where an answer's screenshot URLs point (the emulator's /screenshots) and until when they work. */
export type ScreenshotLinks = { base: string; expiresAt: number };

const iso = (ms: number) => new Date(ms).toISOString();

export const testInfo = (test: TestRecord, ctx: ViewContext) => ({
  id: test.id,
  name: test.name,
  url: `${ctx.appUrl}/tests/${test.id}`,
});

export const testRun = (run: RunRecord) => ({
  object: "testRun" as const,
  id: run.id,
  testId: run.testId,
  status: run.status,
  startTime: iso(run.startTime),
  endTime: run.endTime === null ? null : iso(run.endTime),
  durationMs: run.durationMs,
  triggeredBy: run.triggeredBy,
  createdAt: iso(run.createdAt),
  summary: run.summary && { ...run.summary },
  totalSteps: run.totalSteps,
  failedSteps: run.failedSteps,
  ...run.raw,
});

export const sessionSummary = (s: SessionRecord, ctx: ViewContext) => ({
  object: "session" as const,
  id: s.id,
  url: `${ctx.appUrl}/sessions/${s.id}`,
  createdAt: iso(s.createdAt),
  duration: s.duration,
  userEmail: s.userEmail,
  userId: s.userId,
  userAccount: s.userAccount,
  browser: s.browser,
  device: s.device,
  countryCode: s.countryCode,
  hasTimeline: s.timeline !== null,
});

export const timelineBody = (s: SessionRecord) => {
  const t = s.timeline;
  if (!t) return undefined;
  return structuredClone({
    overview: t.overview,
    tags: t.tags,
    pages: t.pages,
    loadingIssues: t.loadingIssues,
  });
};

/** The object path a screenshot URL names and signs: `/<org>/<session>/<name>.png`. */
export const screenshotPath = (orgId: string, sessionId: string, name: string) =>
  `/${orgId}/${sessionId}/${name}.png`;

/** The signature of a path until `expires` (epoch seconds), like a pre-signed object URL's. */
export const screenshotSignature = (path: string, expires: number) => fnv(`${path}:${expires}`);

/** Time-limited screenshot URLs, signed with their expiry like a pre-signed object URL. */
export function screenshotUrl(org: Org, s: SessionRecord, name: string, links: ScreenshotLinks): string {
  const expires = Math.floor(links.expiresAt / 1000);
  const path = screenshotPath(org.id, s.id, name);
  return `${links.base}${path}?expires=${expires}&sig=${screenshotSignature(path, expires)}`;
}

export const clicks = (org: Org, s: SessionRecord, links: ScreenshotLinks) =>
  s.clicks.map((c) => ({
    id: c.id,
    type: c.type,
    timestamp: c.timestamp,
    clickCount: c.clickCount,
    navigationTo: c.navigationTo,
    screenshots: {
      before: screenshotUrl(org, s, `click-${c.id}-before`, links),
      after: screenshotUrl(org, s, `click-${c.id}-after`, links),
    },
    clickText: c.clickText,
    clickTag: c.clickTag,
    clickCssClass: c.clickCssClass,
  }));

export const collection = (c: CollectionRecord, org: Org) => ({
  id: c.id,
  type: c.type,
  rootCause: c.rootCause,
  shortenedPath: c.shortenedPath,
  createdAt: iso(c.createdAt),
  isResolved: c.isResolved,
  errorCount: c.members.reduce((n, m) => n + m.errorCount, 0),
  sessionCount: c.members.length,
  estimatedUsers: new Set(
    c.members.map((m) => org.sessions.find((s) => s.id === m.sessionId)?.userId ?? m.sessionId),
  ).size,
});

export function collectionSession(
  org: Org,
  c: CollectionRecord,
  m: MemberRecord,
  s: SessionRecord,
  includes: readonly Include[],
  ctx: ViewContext,
  links: ScreenshotLinks,
) {
  const { object: _object, ...summary } = sessionSummary(s, ctx);
  const item: Record<string, unknown> = {
    object: "session",
    ...summary,
    userUsername: s.userUsername,
    userPlan: s.userPlan,
    userRole: s.userRole,
    representativeIssue: {
      errorId: m.errorId,
      latestIssueAt: iso(m.latestIssueAt),
      shortenedPath: c.shortenedPath,
      fullPath: c.fullPath,
      aiSummary: { ...m.aiSummary },
    },
  };
  // A session without an AI timeline has nothing to embed: the field stays absent.
  if (includes.includes("timeline") && s.timeline) item.timeline = timelineBody(s);
  if (includes.includes("clicks") || includes.includes("screenshots")) item.clicks = clicks(org, s, links);
  if (includes.includes("screenshots"))
    item.errorScreenshots = {
      main: screenshotUrl(org, s, `error-${m.errorId}-main`, links),
      after: screenshotUrl(org, s, `error-${m.errorId}-after`, links),
    };
  return item;
}

function fnv(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, "0");
}
