import { collectionSpec, makeMember } from "./data/generate-org.ts";
import { finishRun, makeRun, type RunOverrides } from "./data/runs.ts";
import { makeSession } from "./data/sessions.ts";
import { templates } from "./data/templates.ts";
import type { CollectionRecord, Org, RunRecord, RunStatus, TestRecord } from "./model.ts";
import { withOrgRng } from "./store.ts";

/** Changes to an org's data, shared by the control API and the simulation. */

const failuresOf = (org: Org, testId: number) =>
  templates[org.template].tests.find((t) => t.id === testId)?.failures ?? ["A step did not complete"];

/**
 * A run recorded now. A finished one is taken to have started `durationMs` earlier, so
 * `createdAt` (when the run was recorded) is always the newest and lists stay ordered.
 */
export function addRun(
  org: Org,
  test: TestRecord,
  status: RunStatus,
  at: number,
  overrides: RunOverrides = {},
) {
  // Strictly after the test's newest run, so runs recorded in one millisecond keep their order.
  const newest = Math.max(-Infinity, ...org.runs.filter((r) => r.testId === test.id).map((r) => r.createdAt));
  const now = Math.max(at, newest + 1);
  return withOrgRng(org, (rng) => {
    const run = makeRun(rng, test, failuresOf(org, test.id), org.next.run++, "running", now, now, overrides);
    if (status !== "running") {
      run.startTime = now - rng.int(40_000, 240_000);
      finishRun(rng, run, status, now, failuresOf(org, test.id), overrides);
    }
    org.runs.push(run);
    return run;
  });
}

export function updateRun(
  org: Org,
  run: RunRecord,
  status: RunStatus,
  now: number,
  overrides: RunOverrides = {},
): RunRecord {
  withOrgRng(org, (rng) => {
    if (status === "running") {
      Object.assign(run, { status, endTime: null, durationMs: null, summary: null, failedSteps: 0 });
      if (overrides.totalSteps !== undefined) run.totalSteps = overrides.totalSteps;
      return;
    }
    finishRun(
      rng,
      run,
      status,
      run.status === "running" ? now : (run.endTime ?? now),
      failuresOf(org, run.testId),
      overrides,
    );
  });
  return run;
}

export function addTest(org: Org, name: string): TestRecord {
  const test = { id: org.next.test++, name, steps: 10 };
  org.tests.push(test);
  return test;
}

/** A new unresolved issue collection with no sessions yet, numbered after the org's others. */
export function addCollection(org: Org, rootCause: string, path: string, now: number): CollectionRecord {
  const collection: CollectionRecord = {
    id: Math.max(0, ...org.collections.map((c) => c.id)) + 1,
    type: "javascript_error",
    rootCause,
    shortenedPath: path,
    fullPath: org.siteUrl + path,
    createdAt: now,
    isResolved: false,
    members: [],
  };
  org.collections.push(collection);
  return collection;
}

/** A session recorded `createdAt` has lasted at most this long by `now`: one begun 9 minutes ago did not last 26. */
function secondsSince(createdAt: number, now: number): number {
  return Math.floor((now - createdAt) / 1000);
}

/** New sessions that hit the collection's issue now; the counts grow with them. */
export function addCollectionSessions(org: Org, c: CollectionRecord, count: number, now: number): string[] {
  const t = templates[org.template];
  const summary = collectionSpec(org.template, c.id)?.aiSummary ?? {
    category: "Functional error",
    behavior: "The user hit an error.",
    productFeature: c.shortenedPath,
    errorText: c.rootCause,
    reasoning: "Added through the emulator control API.",
  };
  return withOrgRng(org, (rng) =>
    Array.from({ length: count }, (_, i) => {
      const user = rng.pick(org.users);
      const createdAt = now - rng.int(60, 900) * 1000;
      const session = makeSession(rng, {
        user,
        createdAt,
        maxDuration: secondsSince(createdAt, now),
        siteUrl: org.siteUrl,
        paths: t.paths,
        mustVisit: c.shortenedPath,
        nextClickId: () => org.next.click++,
      });
      org.sessions.push(session);
      // Latest issue "now" (ms apart so the newest-first order follows the creation order).
      c.members.push({
        ...makeMember(rng, { aiSummary: summary }, session, now),
        latestIssueAt: now - (count - 1 - i),
      });
      return session.id;
    }),
  );
}

/**
 * Sessions that visited `path` (with an AI timeline), recorded at random times within the
 * last `withinMs`: real traffic on a page, for the production impact of a failing test.
 */
export function addPageSessions(
  org: Org,
  path: string,
  count: number,
  now: number,
  withinMs: number,
): string[] {
  const t = templates[org.template];
  return withOrgRng(org, (rng) =>
    Array.from({ length: count }, () => {
      const user = rng.pick(org.users);
      // At least the shortest session ago, so that it can have ended by now.
      const createdAt = now - rng.int(45_000, withinMs);
      const session = makeSession(rng, {
        user,
        createdAt,
        maxDuration: secondsSince(createdAt, now),
        siteUrl: org.siteUrl,
        paths: t.paths,
        mustVisit: path,
        hasTimeline: true,
        nextClickId: () => org.next.click++,
      });
      org.sessions.push(session);
      return session.id;
    }),
  );
}
