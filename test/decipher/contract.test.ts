/**
 * Contract tests: the real client against the real emulator over loopback HTTP. Each test
 * gets a fresh organization from the control API so request counts and faults stay its own.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type EmulatorOrg, emulatorControl } from "../../dev/emulator/control-client.ts";
import type { CollectionInclude, TestRun } from "../../src/decipher/types.ts";
import { createVendorClient, type VendorClientOptions } from "../../src/decipher/vendor-client.ts";
import { paginateCollectionSessions, paginateSessions, paginateTestRuns } from "../helpers/paginate.ts";
import { failure } from "./fake-api.ts";

const base = () => env.DECIPHER_API_URL as string;
const emulator = emulatorControl(base());
const newOrg = emulator.newOrg;
type Route = Parameters<EmulatorOrg["fault"]>[0];
const requests = async (apiKey: string) => (await emulator.org(apiKey).requests()).byRoute;

function clientFor(apiKey: string, extra: Partial<VendorClientOptions> = {}) {
  const waits: number[] = [];
  const client = createVendorClient({
    baseUrl: base(),
    apiKey,
    timeoutMs: 5_000,
    // Record the waits instead of sleeping them: the counts are what is under test.
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  return { client, waits };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const INCLUDE_SETS: CollectionInclude[][] = [
  [],
  ["timeline"],
  ["clicks"],
  ["screenshots"],
  ["timeline", "clicks"],
  ["timeline", "screenshots"],
  ["clicks", "screenshots"],
  ["timeline", "clicks", "screenshots"],
];
const WIDE = { since: new Date(Date.now() - 60 * 86_400_000) };

describe("test runs", () => {
  it("lists runs of each demo test with the test object", async () => {
    const { client } = clientFor(await newOrg());
    for (const id of [101, 102, 103]) {
      const list = await client.listTestRuns(id);
      expect(list.test.id).toBe(id);
      expect(list.test.url).toMatch(new RegExp(`/tests/${id}$`));
      expect(list.data.length).toBeGreaterThan(0);
      expect(list.data.every((r) => r.testId === id)).toBe(true);
    }
  });

  it("filters by each status, and the statuses partition `all`", async () => {
    const { client } = clientFor(await newOrg());
    const ids = (runs: TestRun[]) => runs.map((r) => r.id).sort((a, b) => a - b);
    for (const id of [101, 102, 103]) {
      const all = await collect(paginateTestRuns(client, id, { status: "all", limit: 100 }));
      const parts: TestRun[] = [];
      for (const status of ["passed", "failed", "running"] as const) {
        const runs = await collect(paginateTestRuns(client, id, { status, limit: 100 }));
        expect(runs.every((r) => r.status === status)).toBe(true);
        parts.push(...runs);
      }
      expect(ids(parts)).toEqual(ids(all));
    }
    const running = await client.listTestRuns(103, { status: "running" });
    expect(running.data.length).toBeGreaterThan(0);
    expect(running.data.every((r) => r.endTime === null)).toBe(true);
    const failed = await client.listTestRuns(102, { status: "failed" });
    expect(failed.data.length).toBeGreaterThan(0);
  });

  it("applies since and until", async () => {
    const { client } = clientFor(await newOrg());
    const all = await collect(paginateTestRuns(client, 101, { limit: 100 }));
    const times = all.map((r) => Date.parse(r.createdAt)).sort((a, b) => a - b);
    const mid = new Date(times[Math.floor(times.length / 2)] ?? 0);
    const after = await collect(paginateTestRuns(client, 101, { since: mid, limit: 100 }));
    const before = await collect(paginateTestRuns(client, 101, { until: mid, limit: 100 }));
    expect(after.length).toBeGreaterThan(0);
    expect(before.length).toBeGreaterThan(0);
    expect(after.every((r) => Date.parse(r.createdAt) >= mid.getTime())).toBe(true);
    expect(before.every((r) => Date.parse(r.createdAt) <= mid.getTime())).toBe(true);
    expect(after.length + before.length).toBe(all.length + 1);
  });

  it("paginates to exhaustion with no duplicates or gaps", async () => {
    const { client } = clientFor(await newOrg());
    const whole = (await client.listTestRuns(101, { limit: 100 })).data.map((r) => r.id);
    const paged = (await collect(paginateTestRuns(client, 101, { limit: 3 }))).map((r) => r.id);
    expect(whole.length).toBeGreaterThan(6);
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
  });
});

describe("sessions", () => {
  it("paginates a user's sessions (more than 25) with no duplicates or gaps", async () => {
    const { client } = clientFor(await newOrg());
    const query = { userEmail: "jane@acme.com", ...WIDE };
    const whole = (await client.listSessions({ ...query, limit: 100 })).data;
    const paged = await collect(paginateSessions(client, { ...query, limit: 7 }));
    expect(whole.length).toBeGreaterThan(25);
    expect(paged.map((s) => s.id)).toEqual(whole.map((s) => s.id));
    expect(new Set(paged.map((s) => s.id)).size).toBe(paged.length);
    expect(paged.every((s) => s.userEmail === "jane@acme.com")).toBe(true);
  });

  it("filters by a plus-addressed email, by user id and by URL", async () => {
    const { client } = clientFor(await newOrg());
    const qa = await client.listSessions({ userEmail: "jane+qa@acme.com", ...WIDE });
    expect(qa.data.length).toBeGreaterThan(0);
    expect(qa.data.every((s) => s.userEmail === "jane+qa@acme.com")).toBe(true);
    const userId = qa.data[0]?.userId ?? "";
    const byId = await client.listSessions({ userId, ...WIDE, limit: 100 });
    expect(byId.data.map((s) => s.id).sort()).toEqual(qa.data.map((s) => s.id).sort());
    const byUrl = await client.listSessions({ url: "/checkout", ...WIDE, limit: 5 });
    expect(byUrl.data.length).toBeGreaterThan(0);
    const none = await client.listSessions({ userEmail: "nobody@acme.com" });
    expect(none).toMatchObject({ data: [], hasMore: false, nextCursor: null });
  });

  it("gets the timeline and the clicks of a session", async () => {
    const { client } = clientFor(await newOrg());
    const sessions = await collect(paginateSessions(client, { ...WIDE, limit: 100 }));
    const withTimeline = sessions.find((s) => s.hasTimeline);
    const without = sessions.find((s) => !s.hasTimeline);
    expect(withTimeline).toBeDefined();
    const timeline = await client.getSessionTimeline(withTimeline?.id ?? "");
    expect(timeline.object).toBe("sessionTimeline");
    expect(timeline.sessionId).toBe(withTimeline?.id);
    expect(timeline.overview.length).toBeGreaterThan(0);
    if (without) expect((await failure(client.getSessionTimeline(without.id))).isNotFound()).toBe(true);

    let sawScreenshots = false;
    for (const s of sessions.slice(0, 10)) {
      const clicks = await client.getSessionClicks(s.id);
      expect(clicks.sessionId).toBe(s.id);
      if (clicks.data.length === 0) {
        expect(clicks.screenshotsExpiresAt).toBeNull();
        continue;
      }
      sawScreenshots = true;
      const ahead = Date.parse(clicks.screenshotsExpiresAt ?? "") - Date.now();
      expect(ahead).toBeGreaterThan(2.5 * 3600_000);
      expect(ahead).toBeLessThan(3.5 * 3600_000);
    }
    expect(sawScreenshots).toBe(true);
  });
});

describe("collection sessions", () => {
  it("returns the collection, window and includes for every include combination", async () => {
    const { client } = clientFor(await newOrg());
    for (const include of INCLUDE_SETS) {
      const list = await client.listCollectionSessions(501, { include, ...WIDE, limit: 50 });
      expect(list.collection.id).toBe(501);
      expect(list.collection.isResolved).toBe(false);
      expect([...list.includes].sort()).toEqual([...include].sort());
      expect(list.data.length).toBeGreaterThan(0);
      const wantsClicks = include.includes("clicks") || include.includes("screenshots");
      for (const s of list.data) {
        // A session without an AI timeline has nothing to embed even when asked.
        expect(s.timeline !== undefined).toBe(include.includes("timeline") && s.hasTimeline);
        expect(s.clicks !== undefined).toBe(wantsClicks);
        if (s.timeline) expect(s.timeline).not.toHaveProperty("object");
      }
      if (include.includes("timeline")) expect(list.data.some((s) => s.timeline !== undefined)).toBe(true);
      if (wantsClicks) expect(list.data.some((s) => (s.clicks ?? []).length > 0)).toBe(true);
      if (include.includes("screenshots")) expect(list.screenshotsExpiresAt).not.toBeNull();
      if (include.length === 0) expect(list.screenshotsExpiresAt).toBeNull();
      if (list.screenshotsExpiresAt !== null) {
        expect(Date.parse(list.screenshotsExpiresAt) - Date.now()).toBeGreaterThan(2.5 * 3600_000);
      }
    }
  });

  it("defaults to the last 24 hours and honours an explicit window", async () => {
    const { client } = clientFor(await newOrg());
    const list = await client.listCollectionSessions(501);
    const span = Date.parse(list.window.until) - Date.parse(list.window.since);
    expect(span).toBe(86_400_000);
    expect(Math.abs(Date.parse(list.window.until) - Date.now())).toBeLessThan(60_000);
    const since = new Date(Date.now() - 7 * 86_400_000);
    const wide = await client.listCollectionSessions(501, { since, until: new Date() });
    expect(Date.parse(wide.window.since)).toBe(since.getTime());
  });

  it("paginates to exhaustion with no duplicates or gaps, and knows resolved collections", async () => {
    const { client } = clientFor(await newOrg());
    const whole = (await client.listCollectionSessions(501, { ...WIDE, limit: 50 })).data.map((s) => s.id);
    const paged = (await collect(paginateCollectionSessions(client, 501, { ...WIDE, limit: 2 }))).map(
      (s) => s.id,
    );
    expect(whole.length).toBeGreaterThan(2);
    expect(paged).toEqual(whole);
    expect(new Set(paged).size).toBe(paged.length);
    expect((await client.listCollectionSessions(502, WIDE)).collection.isResolved).toBe(true);
  });
});

describe("errors", () => {
  it("rejects an unknown key as authentication_error", async () => {
    const { client } = clientFor("dcp_live_not_a_real_key");
    const error = await failure(client.listTestRuns(101));
    expect(error.status).toBe(401);
    expect(error.isAuthentication()).toBe(true);
    expect(error.message).not.toContain("dcp_live_not_a_real_key");
  });

  it("scopes data to the key's organization", async () => {
    const globex = clientFor(await newOrg("globex")).client;
    expect((await globex.listTestRuns(201)).test.id).toBe(201);
    expect((await globex.listCollectionSessions(601)).collection.id).toBe(601);
    const runs = await failure(globex.listTestRuns(101));
    expect(runs.isNotFound()).toBe(true);
    expect(runs.type).toBe("not_found_error");
    expect((await failure(globex.listCollectionSessions(501))).isNotFound()).toBe(true);
    const acmeSession = (await clientFor(await newOrg()).client.listSessions({ limit: 1, ...WIDE })).data[0];
    expect((await failure(globex.getSessionClicks(acmeSession?.id ?? ""))).isNotFound()).toBe(true);
  });

  it("reports unknown ids as not found", async () => {
    const { client } = clientFor(await newOrg());
    expect((await failure(client.listTestRuns(999_999))).isNotFound()).toBe(true);
    expect((await failure(client.listCollectionSessions(999_999))).isNotFound()).toBe(true);
    const missing = await failure(client.getSessionTimeline("00000000-0000-4000-8000-000000000000"));
    expect(missing.isNotFound()).toBe(true);
  });

  it("surfaces the vendor's 422 with its field for a tampered cursor", async () => {
    const { client } = clientFor(await newOrg());
    const error = await failure(client.listSessions({ cursor: "not-a-real-cursor" }));
    expect(error.status).toBe(422);
    expect(error.type).toBe("validation_error");
    expect(error.field).toBe("cursor");
    expect(error.isValidation()).toBe(true);
  });

  it("rejects bad input before sending anything", async () => {
    const apiKey = await newOrg();
    const { client } = clientFor(apiKey);
    expect((await failure(client.listTestRuns(101, { limit: 101 }))).field).toBe("limit");
    expect((await failure(client.listCollectionSessions(501, { limit: 51 }))).field).toBe("limit");
    expect((await failure(client.getSessionClicks("nope"))).field).toBe("sessionId");
    const counts = await requests(apiKey);
    expect(counts.testRuns + counts.collectionSessions + counts.clicks).toBe(0);
  });
});

describe("faults", () => {
  const calls: [
    Route,
    Exclude<Route, "*">,
    (c: ReturnType<typeof clientFor>["client"], id: string) => Promise<unknown>,
  ][] = [
    ["testRuns", "testRuns", (c) => c.listTestRuns(101)],
    ["sessions", "sessions", (c) => c.listSessions()],
    ["timeline", "timeline", (c, id) => c.getSessionTimeline(id)],
    ["clicks", "clicks", (c, id) => c.getSessionClicks(id)],
    ["collectionSessions", "collectionSessions", (c) => c.listCollectionSessions(501)],
  ];
  for (const [route, counter, call] of calls) {
    it(`retries 429 (Retry-After) and 500 on ${route}, counted by the emulator`, async () => {
      const apiKey = await newOrg();
      const { client, waits } = clientFor(apiKey);
      const sessions = await collect(paginateSessions(client, { ...WIDE, limit: 100 }));
      const id = sessions.find((s) => s.hasTimeline)?.id ?? "";
      const before = (await requests(apiKey))[counter];
      await emulator.org(apiKey).fault(route, "429", 1, 2);
      await emulator.org(apiKey).fault(route, "500", 1);
      await call(client, id);
      expect((await requests(apiKey))[counter] - before).toBe(3);
      expect(waits[0]).toBe(2000);
      expect(waits).toHaveLength(2);
    });
  }

  it("gives up after the attempt limit on persistent 5xx", async () => {
    const apiKey = await newOrg();
    const { client } = clientFor(apiKey, { retry: { attempts: 3 } });
    await emulator.org(apiKey).fault("testRuns", "500", 5);
    const error = await failure(client.listTestRuns(101));
    expect(error.status).toBe(500);
    expect(error.type).toBe("api_error");
    expect(error.attempts).toBe(3);
    expect((await requests(apiKey)).testRuns).toBe(3);
  });

  it("does not sleep through a Retry-After above the cap", async () => {
    const apiKey = await newOrg();
    const { client, waits } = clientFor(apiKey, { retry: { maxRetryAfterMs: 5_000 } });
    await emulator.org(apiKey).fault("sessions", "429", 3, 60);
    const error = await failure(client.listSessions());
    expect(error.isRateLimited()).toBe(true);
    expect(error.retryAfterMs).toBe(60_000);
    expect(waits).toEqual([]);
    expect((await requests(apiKey)).sessions).toBe(1);
  });

  it("times out a hung request and succeeds on the retry", async () => {
    const apiKey = await newOrg();
    const { client } = clientFor(apiKey, { timeoutMs: 300 });
    await emulator.org(apiKey).fault("collectionSessions", "hang", 1);
    const started = Date.now();
    const list = await client.listCollectionSessions(501);
    expect(list.collection.id).toBe(501);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await requests(apiKey)).collectionSessions).toBe(2);
  });

  it("reports timeout_error when every attempt hangs", async () => {
    const apiKey = await newOrg();
    const { client } = clientFor(apiKey, { timeoutMs: 200, retry: { attempts: 2 } });
    await emulator.org(apiKey).fault("testRuns", "hang", 2);
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("timeout_error");
    expect(error.status).toBeNull();
    expect(error.attempts).toBe(2);
  });

  it("reports malformed JSON as invalid_response without retrying", async () => {
    const apiKey = await newOrg();
    const { client } = clientFor(apiKey);
    await emulator.org(apiKey).fault("testRuns", "malformed", 1);
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("invalid_response");
    expect(error.isTransient()).toBe(true);
    expect((await requests(apiKey)).testRuns).toBe(1);
    expect((await client.listTestRuns(101)).test.id).toBe(101);
  });
});
