import type {
  CollectionRecord,
  MemberRecord,
  Org,
  RunRecord,
  SessionRecord,
  TemplateName,
} from "../model.ts";
import { createRng, deriveSeed, type Rng } from "../rng.ts";
import { makeRun } from "./runs.ts";
import { makeSession } from "./sessions.ts";
import { type CollectionSpec, type Template, templates } from "./templates.ts";

const HOUR = 3_600_000;

export type OrgIdentity = { id: string; name: string; apiKey: string };

/**
 * Builds an organization from its template. Same seed → same ids, names and numbers;
 * timestamps are relative to `now`, so "the last 24 hours" always has content.
 */
export function generateOrg(template: TemplateName, seed: number, now: number, identity: OrgIdentity): Org {
  const t = templates[template];
  const rng = createRng(deriveSeed(seed, template));
  let clickId = template === "acme" ? 70001 : 80001;
  const nextClickId = () => clickId++;

  const sessions: SessionRecord[] = [];
  const members = new Map<number, MemberRecord[]>(t.collections.map((c) => [c.id, []]));
  let longForced = false;
  for (const user of t.users) {
    const ages = Array.from({ length: user.sessions }, (_, i) =>
      i < user.recent ? 0.05 + rng.next() * 22.9 : 24 + rng.next() * 320,
    ).sort((a, b) => a - b);
    ages.forEach((ageHours, i) => {
      const createdAt = Math.round(now - ageHours * HOUR);
      const collection = t.collections.find(
        (c) =>
          ageHours >= c.memberAgeHours[0] && ageHours <= c.memberAgeHours[1] && rng.chance(c.memberChance),
      );
      const inProgress = i === 0 && user.recent > 2;
      const longOverview =
        !inProgress && ((!longForced && collection?.id === t.collections[0]?.id) || rng.chance(0.1));
      if (longOverview) longForced = true;
      const session = makeSession(rng, {
        user,
        createdAt,
        maxDuration: Math.max(45, Math.floor((now - createdAt) / 1000)),
        siteUrl: t.siteUrl,
        paths: t.paths,
        mustVisit: collection?.shortenedPath,
        inProgress,
        hasTimeline: longOverview ? true : undefined,
        longOverview,
        nextClickId,
      });
      sessions.push(session);
      if (collection) members.get(collection.id)?.push(makeMember(rng, collection, session, now));
    });
  }
  sessions.sort((a, b) => b.createdAt - a.createdAt);

  const runs: RunRecord[] = [];
  for (const spec of t.tests) {
    const test = { id: spec.id, name: spec.name, steps: spec.steps };
    for (let i = spec.runs.count - 1; i >= 0; i--) {
      const status = spec.runs.statusAt(i);
      const age =
        status === "running"
          ? rng.int(120, 240) * 1000
          : (i * spec.runs.everyHours + 0.5) * HOUR + rng.int(0, HOUR);
      const start = now - age;
      runs.push(makeRun(rng, test, spec.failures, 0, status, start, start));
    }
  }
  runs.sort((a, b) => a.createdAt - b.createdAt);
  runs.forEach((r, i) => {
    r.id = t.firstRunId + i;
  });

  return {
    ...identity,
    template,
    siteUrl: t.siteUrl,
    tests: t.tests.map((s) => ({ id: s.id, name: s.name, steps: s.steps })),
    runs,
    sessions,
    collections: t.collections.map((c) => collectionRecord(t, c, now, members.get(c.id) ?? [])),
    users: t.users.map(({ sessions: _s, recent: _r, ...profile }) => profile),
    next: { run: t.firstRunId + runs.length, test: t.firstTestId, click: clickId },
    sim: { rngState: deriveSeed(seed, `sim:${template}`), ticks: 0 },
    requests: {},
  };
}

export function makeMember(
  rng: Rng,
  collection: Pick<CollectionSpec, "aiSummary">,
  session: SessionRecord,
  now: number,
): MemberRecord {
  const within = (session.duration ?? 60) * 1000;
  return {
    sessionId: session.id,
    errorCount: rng.int(1, 3),
    errorId: rng.uuid(),
    latestIssueAt: Math.min(now, session.createdAt + Math.round(rng.next() * within)),
    aiSummary: { ...collection.aiSummary },
  };
}

function collectionRecord(
  t: Template,
  c: CollectionSpec,
  now: number,
  members: MemberRecord[],
): CollectionRecord {
  return {
    id: c.id,
    type: c.type,
    rootCause: c.rootCause,
    shortenedPath: c.shortenedPath,
    fullPath: t.siteUrl + c.shortenedPath,
    createdAt: now - c.createdDaysAgo * 24 * HOUR,
    isResolved: c.isResolved,
    members,
  };
}

/** The spec a collection was generated from (for its AI summary when it grows). */
export function collectionSpec(template: TemplateName, id: number): CollectionSpec | undefined {
  return templates[template].collections.find((c) => c.id === id);
}
