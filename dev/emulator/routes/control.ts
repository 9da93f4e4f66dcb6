import { type Context, Hono } from "hono";
import * as CLASSIFY_THRESHOLDS from "../../../src/model/classify-thresholds.ts";
import { isRecord } from "../../../src/util/checks.ts";
import { ApiError, badControlRequest } from "../errors.ts";
import { type FaultKind, type FaultRegistry, faultKinds, type RouteName, routeNames } from "../faults.ts";
import type { Org, RunStatus } from "../model.ts";
import { addCollection, addCollectionSessions, addRun, addTest, updateRun } from "../mutations.ts";
import { startScenario, type TickChange, tick } from "../simulation.ts";
import type { Store } from "../store.ts";
import * as view from "../views.ts";

export type ControlDeps = { store: Store; faults: FaultRegistry; appUrl: string; now: () => number };

type Body = Record<string, unknown>;

/**
 * Test control under /__emulator: no auth, JSON in and out. Everything that changes data
 * takes the `apiKey` of the org to change, so tests sharing one emulator stay isolated.
 */
export function controlRoutes(deps: ControlDeps) {
  const control = new Hono();
  const { store, faults } = deps;

  control.post("/orgs", async (c) => {
    const body = await json(c);
    const template = body.template ?? "acme";
    if (template !== "acme" && template !== "globex")
      throw badControlRequest("template must be 'acme' or 'globex'", "template");
    const org = store.createTestOrg(template);
    return c.json({ apiKey: org.apiKey, organization: { id: org.id, name: org.name, template } }, 201);
  });

  control.post("/tests", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const name = body.name;
    if (typeof name !== "string" || !name.trim())
      throw badControlRequest("name must be a non-empty string", "name");
    return c.json(view.testInfo(addTest(org, name), { appUrl: deps.appUrl, now: deps.now() }), 201);
  });

  control.post("/tests/:testId/runs", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const test = org.tests.find((t) => String(t.id) === c.req.param("testId"));
    if (!test) throw new ApiError(404, "not_found_error", "not_found", "Test not found in this organization");
    const run = addRun(org, test, runStatus(body.status), deps.now(), overrides(body));
    const createdAt = pastTime(body.createdAt);
    if (createdAt !== undefined) {
      // Recorded earlier: the run keeps its duration and moves back in time.
      const shift = run.createdAt - createdAt;
      run.createdAt -= shift;
      run.startTime -= shift;
      if (run.endTime !== null) run.endTime -= shift;
    }
    const raw = rawFields(body.raw);
    if (raw) run.raw = raw;
    return c.json(view.testRun(run), 201);
  });

  // A new failure, whatever the test's history: enough passed runs that none of its earlier
  // failures is among the last `flakyWindowRuns`, then one failed run. The sandbox recipe for
  // a "new failure" alert (with its Production line when the subscription has `page:`).
  control.post("/tests/:testId/new-failure", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const test = org.tests.find((t) => String(t.id) === c.req.param("testId"));
    if (!test) throw new ApiError(404, "not_found_error", "not_found", "Test not found in this organization");
    const passedFirst = body.passedFirst ?? CLASSIFY_THRESHOLDS.flakyWindowRuns;
    if (!Number.isInteger(passedFirst) || (passedFirst as number) < 1 || (passedFirst as number) > 100)
      throw badControlRequest("passedFirst must be an integer from 1 to 100", "passedFirst");
    const passed = Array.from({ length: passedFirst as number }, () =>
      addRun(org, test, "passed", deps.now()),
    );
    const failed = addRun(org, test, "failed", deps.now(), overrides(body));
    return c.json({ passed: passed.map((r) => r.id), failed: view.testRun(failed) }, 201);
  });

  control.patch("/runs/:runId", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const run = org.runs.find((r) => String(r.id) === c.req.param("runId"));
    if (!run) throw new ApiError(404, "not_found_error", "not_found", "Run not found in this organization");
    const status = body.status === undefined ? run.status : runStatus(body.status);
    updateRun(org, run, status, deps.now(), overrides(body));
    if (body.raw === null) delete run.raw;
    else {
      const raw = rawFields(body.raw);
      if (raw) run.raw = raw;
    }
    return c.json(view.testRun(run));
  });

  control.post("/list-order", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    if (body.order !== "newest" && body.order !== "oldest")
      throw badControlRequest("order must be 'newest' or 'oldest'", "order");
    org.listOrder = body.order;
    return c.json({ ok: true, order: org.listOrder });
  });

  control.post("/collections", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const { rootCause, path = "/" } = body;
    if (typeof rootCause !== "string" || !rootCause.trim())
      throw badControlRequest("rootCause must be a non-empty string", "rootCause");
    if (typeof path !== "string" || !path.startsWith("/"))
      throw badControlRequest("path must start with /", "path");
    return c.json(view.collection(addCollection(org, rootCause, path, deps.now()), org), 201);
  });

  control.post("/collections/:id/sessions", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const collection = collectionOf(org, c.req.param("id"));
    const count = body.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 200)
      throw badControlRequest("count must be an integer from 1 to 200", "count");
    const sessionIds = addCollectionSessions(org, collection, count as number, deps.now());
    return c.json({ collection: view.collection(collection, org), sessionIds }, 201);
  });

  control.post("/collections/:id/expire", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const collection = collectionOf(org, c.req.param("id"));
    const count = body.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1)
      throw badControlRequest("count must be a positive integer", "count");
    // Retention: the oldest members leave the collection, and its counts drop with them.
    const kept = [...collection.members].sort((a, b) => a.latestIssueAt - b.latestIssueAt);
    collection.members = kept.slice(Math.min(count as number, kept.length));
    return c.json({ collection: view.collection(collection, org) });
  });

  control.patch("/collections/:id", async (c) => {
    const body = await json(c);
    const org = orgOf(store, body);
    const collection = collectionOf(org, c.req.param("id"));
    if (typeof body.isResolved !== "boolean")
      throw badControlRequest("isResolved must be a boolean", "isResolved");
    collection.isResolved = body.isResolved;
    return c.json(view.collection(collection, org));
  });

  /** Deleted at Decipher: the test (with its runs) is gone, so the API answers 404 for it. */
  control.delete("/tests/:testId", async (c) => {
    const org = orgOf(store, { apiKey: c.req.query("apiKey") });
    const id = Number(c.req.param("testId"));
    if (!org.tests.some((t) => t.id === id))
      throw new ApiError(404, "not_found_error", "not_found", "No such test");
    org.tests = org.tests.filter((t) => t.id !== id);
    org.runs = org.runs.filter((r) => r.testId !== id);
    return c.json({ ok: true, deleted: id });
  });

  /** Deleted at Decipher: the collection is gone, so its sessions endpoint answers 404. */
  control.delete("/collections/:id", async (c) => {
    const org = orgOf(store, { apiKey: c.req.query("apiKey") });
    const collection = collectionOf(org, c.req.param("id"));
    org.collections = org.collections.filter((x) => x !== collection);
    return c.json({ ok: true, deleted: collection.id });
  });

  control.post("/faults", async (c) => {
    const body = await json(c);
    const apiKey = body.apiKey === undefined ? null : orgOf(store, body).apiKey;
    const route = body.route ?? "*";
    if (route !== "*" && !(routeNames as readonly unknown[]).includes(route))
      throw badControlRequest(`route must be one of ${routeNames.join(", ")}, *`, "route");
    if (!(faultKinds as readonly unknown[]).includes(body.kind))
      throw badControlRequest(`kind must be one of ${faultKinds.join(", ")}`, "kind");
    const count = body.count ?? 1;
    if (!Number.isInteger(count) || (count as number) < 1)
      throw badControlRequest("count must be a positive integer", "count");
    const retryAfter = body.retryAfter ?? 1;
    if (!Number.isInteger(retryAfter) || (retryAfter as number) < 0)
      throw badControlRequest("retryAfter must be a non-negative integer (seconds)", "retryAfter");
    const fault = faults.add({
      apiKey,
      route: route as RouteName | "*",
      kind: body.kind as FaultKind,
      remaining: count as number,
      retryAfter: retryAfter as number,
    });
    return c.json(fault, 201);
  });

  control.get("/faults", (c) => c.json({ faults: faults.list(c.req.query("apiKey")) }));
  control.delete("/faults", (c) => {
    faults.clear(c.req.query("apiKey"));
    return c.json({ ok: true });
  });

  control.get("/requests", (c) => {
    const org = orgOf(store, { apiKey: c.req.query("apiKey") });
    const byRoute = Object.fromEntries(routeNames.map((r) => [r, org.requests[r] ?? 0]));
    const total = Object.values(byRoute).reduce((a, b) => a + b, 0);
    return c.json({ apiKey: org.apiKey, total, byRoute });
  });

  control.delete("/requests", (c) => {
    orgOf(store, { apiKey: c.req.query("apiKey") }).requests = {};
    return c.json({ ok: true });
  });

  control.post("/tick", async (c) => {
    const body = await json(c);
    const orgs = body.apiKey === undefined ? store.demoOrgs() : [orgOf(store, body)];
    const now = deps.now();
    const changes: Record<string, TickChange[]> = {};
    for (const org of orgs) changes[org.apiKey] = tick(org, now);
    return c.json({ ticks: Object.fromEntries(orgs.map((o) => [o.apiKey, o.sim.ticks])), changes });
  });

  control.post("/scenario", async (c) => {
    const body = await json(c);
    const orgs = body.apiKey === undefined ? store.demoOrgs() : [orgOf(store, body)];
    if (body.name !== "cycle" && body.name !== "noisy")
      throw badControlRequest("name must be 'cycle' or 'noisy'", "name");
    const now = deps.now();
    const changes: Record<string, TickChange[]> = {};
    for (const org of orgs) changes[org.apiKey] = startScenario(org, body.name, now);
    return c.json({ scenario: body.name, changes });
  });

  control.post("/reset", async (c) => {
    const body = await json(c);
    if (body.apiKey === undefined) {
      store.reset();
      faults.clear();
      return c.json({ ok: true, scope: "all" });
    }
    const org = orgOf(store, body);
    faults.clear(org.apiKey);
    store.reset(org.apiKey);
    return c.json({ ok: true, scope: org.apiKey });
  });

  control.all("*", (c) => {
    throw new ApiError(404, "not_found_error", "not_found", `No control route ${c.req.method} ${c.req.path}`);
  });
  return control;
}

async function json(c: Context): Promise<Body> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (isRecord(value)) return value;
  } catch {
    // fall through
  }
  throw badControlRequest("Body must be a JSON object");
}

function orgOf(store: Store, body: Body): Org {
  if (typeof body.apiKey !== "string") throw badControlRequest("apiKey is required", "apiKey");
  const org = store.byKey(body.apiKey);
  if (!org) throw badControlRequest("Unknown apiKey", "apiKey");
  return org;
}

function collectionOf(org: Org, id: string) {
  const collection = org.collections.find((x) => String(x.id) === id);
  if (!collection)
    throw new ApiError(404, "not_found_error", "not_found", "Collection not found in this organization");
  return collection;
}

function runStatus(value: unknown): RunStatus {
  if (value === "passed" || value === "failed" || value === "running") return value;
  throw badControlRequest("status must be passed, failed or running", "status");
}

/** An ISO date-time, for runs recorded earlier than now. */
function pastTime(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw badControlRequest("createdAt must be an ISO 8601 date-time", "createdAt");
  return ms;
}

/** Wire fields to serve verbatim (any JSON, even ones the API never sends), for malformed runs. */
function rawFields(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw badControlRequest("raw must be an object of wire fields", "raw");
  return value as Record<string, unknown>;
}

function overrides(body: Body) {
  const int = (name: string, v: unknown) => {
    if (v === undefined) return undefined;
    if (!Number.isInteger(v) || (v as number) < 0)
      throw badControlRequest(`${name} must be a non-negative integer`, name);
    return v as number;
  };
  const str = (name: string, v: unknown) => {
    if (v === undefined) return undefined;
    if (typeof v !== "string") throw badControlRequest(`${name} must be a string`, name);
    return v;
  };
  return {
    failedSteps: int("failedSteps", body.failedSteps),
    totalSteps: int("totalSteps", body.totalSteps),
    oneLineSummary: str("oneLineSummary", body.oneLineSummary),
    firstFailedStepNumber:
      body.firstFailedStepNumber === null ? null : int("firstFailedStepNumber", body.firstFailedStepNumber),
    triggeredBy: str("triggeredBy", body.triggeredBy),
  };
}
