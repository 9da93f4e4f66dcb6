import { type Context, Hono } from "hono";
import type { CursorCodec, CursorPosition } from "../cursor.ts";
import { ApiError, invalid, methodNotAllowed, notFound, unauthenticated } from "../errors.ts";
import { bendPage, type FaultRegistry, pageFaultKinds, type RouteName } from "../faults.ts";
import { page } from "../keyset-pages.ts";
import type { Org } from "../model.ts";
import {
  checkRange,
  parseInclude,
  parseLimit,
  parseNumericId,
  parseStatus,
  parseTime,
  parseUuid,
} from "../params.ts";
import type { Store } from "../store.ts";
import * as view from "../views.ts";

export type ApiDeps = {
  store: Store;
  faults: FaultRegistry;
  cursors: CursorCodec;
  appUrl: string;
  now: () => number;
  hangCapMs: number;
};

type Env = { Variables: { org: Org } };

/** Screenshots are served by the host that answered (routes/screenshots.ts). */
const screenshotBase = (c: Context) => `${new URL(c.req.url).origin}/screenshots`;
const DAY = 86_400_000;

/** The five read endpoints under /api/v1, as docs/decipher-api.md describes them. */
export function apiRoutes(deps: ApiDeps) {
  const api = new Hono<Env>();

  // Everything here is read-only: other methods (HEAD included) get 405 before auth.
  api.use("*", async (c, next) => {
    if (c.req.method !== "GET") throw methodNotAllowed(c.req.method);
    await next();
  });

  /** Auth, request counting and injected faults, in that order, then the handler. */
  const endpoint =
    (route: RouteName, handler: (c: Context<Env>, org: Org) => Promise<Response> | Response) =>
    async (c: Context<Env>) => {
      const org = authenticate(c.req.header("authorization"), c.req.header("x-api-key"), deps.store);
      org.requests[route] = (org.requests[route] ?? 0) + 1;
      const fault = deps.faults.take(org.apiKey, route);
      if (fault && !pageFaultKinds.includes(fault.kind))
        return injected(fault.kind, fault.retryAfter, c.req.raw.signal, deps);
      const res = await handler(c, org);
      if (!fault || res.status !== 200) return res;
      return c.json(bendPage(fault.kind, await res.json(), c.req.query("cursor")));
    };

  const ctx = () => ({ appUrl: deps.appUrl, now: deps.now() });

  api.get(
    "/tests/:testId/runs",
    endpoint("testRuns", async (c, org) => {
      const testId = parseNumericId("testId", c.req.param("testId") ?? "");
      const q = c.req.query();
      const limit = parseLimit(q.limit, 100, 20);
      const status = parseStatus(q.status);
      const since = parseTime("since", q.since);
      const until = parseTime("until", q.until);
      checkRange(since, until);
      const test = org.tests.find((t) => t.id === testId);
      if (!test) throw notFound(`Test ${testId} not found`);
      const queryKey = `testRuns:${testId}:${status}:${q.since ?? ""}:${q.until ?? ""}`;
      const after = await readCursor(deps, org, queryKey, q.cursor);
      const runs = org.runs.filter(
        (r) =>
          r.testId === testId &&
          (status === "all" || r.status === status) &&
          (since === undefined || r.createdAt >= since) &&
          (until === undefined || r.createdAt <= until),
      );
      const p = page(runs, (r) => ({ t: r.createdAt, id: r.id }), after, limit, org.listOrder ?? "newest");
      return c.json({
        object: "list",
        data: p.items.map(view.testRun),
        hasMore: p.hasMore,
        nextCursor: await nextCursor(deps, org, queryKey, p),
        test: view.testInfo(test, ctx()),
      });
    }),
  );

  api.get(
    "/sessions",
    endpoint("sessions", async (c, org) => {
      const q = c.req.query();
      const limit = parseLimit(q.limit, 100, 20);
      const since = parseTime("since", q.since);
      const until = parseTime("until", q.until);
      checkRange(since, until);
      const email = q.userEmail?.toLowerCase();
      const queryKey = `sessions:${JSON.stringify([q.userEmail, q.userId, q.url, q.since, q.until])}`;
      const after = await readCursor(deps, org, queryKey, q.cursor);
      const sessions = org.sessions.filter(
        (s) =>
          (email === undefined || s.userEmail.toLowerCase() === email) &&
          (q.userId === undefined || s.userId === q.userId) &&
          (q.url === undefined || s.visitedUrls.some((u) => u.includes(q.url as string))) &&
          (since === undefined || s.createdAt >= since) &&
          (until === undefined || s.createdAt <= until),
      );
      const p = page(sessions, (s) => ({ t: s.createdAt, id: s.id }), after, limit);
      const context = ctx();
      return c.json({
        object: "list",
        data: p.items.map((s) => view.sessionSummary(s, context)),
        hasMore: p.hasMore,
        nextCursor: await nextCursor(deps, org, queryKey, p),
      });
    }),
  );

  api.get(
    "/sessions/:sessionId/timeline",
    endpoint("timeline", (c, org) => {
      const id = parseUuid("sessionId", c.req.param("sessionId") ?? "");
      const session = org.sessions.find((s) => s.id === id);
      const body = session && view.timelineBody(session);
      if (!session || !body) throw notFound("Session or timeline not found");
      return c.json({ object: "sessionTimeline", sessionId: session.id, ...body });
    }),
  );

  api.get(
    "/sessions/:sessionId/clicks",
    endpoint("clicks", (c, org) => {
      const id = parseUuid("sessionId", c.req.param("sessionId") ?? "");
      const session = org.sessions.find((s) => s.id === id);
      if (!session) throw notFound("Session not found");
      const expiresAt = deps.now() + view.SCREENSHOT_TTL_MS;
      const data = view.clicks(org, session, { base: screenshotBase(c), expiresAt });
      return c.json({
        object: "sessionClicks",
        sessionId: session.id,
        data,
        screenshotsExpiresAt: data.length ? new Date(expiresAt).toISOString() : null,
      });
    }),
  );

  api.get(
    "/monitoring/issue-collections/:collectionId/sessions",
    endpoint("collectionSessions", async (c, org) => {
      const collectionId = parseNumericId("collectionId", c.req.param("collectionId") ?? "");
      const q = c.req.query();
      const limit = parseLimit(q.limit, 50, 10);
      const includes = parseInclude(q.include);
      const sinceAsked = parseTime("since", q.since);
      const untilAsked = parseTime("until", q.until);
      checkRange(sinceAsked, untilAsked);
      const collection = org.collections.find((x) => x.id === collectionId);
      if (!collection) throw notFound(`Issue collection ${collectionId} not found`);
      // Includes change only the shape, not the items, so they are not part of the binding.
      const queryKey = `collectionSessions:${collectionId}:${q.since ?? ""}:${q.until ?? ""}`;
      const after = await readCursor(deps, org, queryKey, q.cursor);
      const now = deps.now();
      // Later pages keep the window of the first, or "now" would drift under the reader.
      const until = untilAsked ?? after?.window?.[1] ?? now;
      const since = sinceAsked ?? after?.window?.[0] ?? until - DAY;
      if (since > until) throw invalid("since", "since must not be after until");
      const members = collection.members.filter((m) => m.latestIssueAt >= since && m.latestIssueAt <= until);
      const p = page(members, (m) => ({ t: m.latestIssueAt, id: m.sessionId }), after, limit);
      const expiresAt = now + view.SCREENSHOT_TTL_MS;
      const links = { base: screenshotBase(c), expiresAt };
      const context = { appUrl: deps.appUrl, now };
      const data = p.items.flatMap((m) => {
        const s = org.sessions.find((x) => x.id === m.sessionId);
        return s ? [view.collectionSession(org, collection, m, s, includes, context, links)] : [];
      });
      const hasScreenshots = data.some(
        (d) => d.errorScreenshots !== undefined || (Array.isArray(d.clicks) && d.clicks.length > 0),
      );
      return c.json({
        object: "list",
        collection: view.collection(collection, org),
        data,
        includes,
        hasMore: p.hasMore,
        nextCursor: await nextCursor(deps, org, queryKey, p, [since, until]),
        window: { since: new Date(since).toISOString(), until: new Date(until).toISOString() },
        screenshotsExpiresAt: hasScreenshots ? new Date(expiresAt).toISOString() : null,
      });
    }),
  );

  api.all("*", (c) => {
    throw notFound(`No such endpoint: ${c.req.path}`);
  });
  return api;
}

function authenticate(authorization: string | undefined, xApiKey: string | undefined, store: Store): Org {
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const key = bearer ?? xApiKey?.trim();
  if (!key) {
    throw unauthenticated(
      authorization ? "Malformed Authorization header; use 'Bearer <API key>'" : "Missing API key",
    );
  }
  const org = store.byKey(key);
  if (!org) throw unauthenticated("Invalid API key");
  return org;
}

async function readCursor(
  deps: ApiDeps,
  org: Org,
  query: string,
  raw: string | undefined,
): Promise<CursorPosition | undefined> {
  if (raw === undefined || raw === "") return undefined;
  const position = await deps.cursors.decode(raw);
  if (!position) throw invalid("cursor", "Invalid cursor");
  if (position.org !== org.id || position.query !== query)
    throw invalid("cursor", "This cursor belongs to a different query; start again without a cursor");
  return position;
}

async function nextCursor(
  deps: ApiDeps,
  org: Org,
  query: string,
  p: { hasMore: boolean; last: { t: number; id: string | number } | undefined },
  window?: [number, number],
): Promise<string | null> {
  if (!p.hasMore || !p.last) return null;
  return deps.cursors.encode({
    org: org.id,
    query,
    t: p.last.t,
    id: p.last.id,
    ...(window ? { window } : {}),
  });
}

async function injected(
  kind: string,
  retryAfter: number,
  signal: AbortSignal,
  deps: ApiDeps,
): Promise<Response> {
  switch (kind) {
    case "429":
      throw new ApiError(429, "rate_limit_error", "rate_limited", "Too many requests; retry later", null, {
        "Retry-After": String(retryAfter),
      });
    case "404":
      // What Decipher answers once the test or collection asked for was deleted.
      throw notFound("Not found (injected: deleted at Decipher)");
    case "401":
      // A key revoked at Decipher (docs/decipher-api.md: 401 authentication_error).
      throw unauthenticated("Invalid API key (injected: revoked at Decipher)");
    case "403":
      // A key that lost access to this resource (403 authorization_error).
      throw new ApiError(
        403,
        "authorization_error",
        "forbidden",
        "Forbidden (injected: access removed at Decipher)",
      );
    case "malformed":
      return new Response('{"object":"list","data":[{"object":', {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
      });
    case "hang":
      await deps.faults.hang(signal, deps.hangCapMs);
      throw new ApiError(
        500,
        "api_error",
        "internal_error",
        "The request hung and was released by the emulator",
      );
    default:
      throw new ApiError(500, "api_error", "internal_error", "Internal server error (injected)");
  }
}
