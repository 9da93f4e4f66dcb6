import { describe, expect, it } from "vitest";
import { ACME, api, baseUrl, emulator, GLOBEX, getJson, type Json } from "./helpers.ts";

const collection = (id: number, key: string, query = "") =>
  getJson(`/monitoring/issue-collections/${id}/sessions${query}`, key);

describe("test organizations", () => {
  it("copy a template under a fresh dcp_test_ key and stay isolated from the demo", async () => {
    const key = await emulator.newOrg("globex");
    expect(key).toMatch(/^dcp_test_[0-9a-f]+$/);
    expect((await getJson("/tests/201/runs", key)).data).toEqual(
      (await getJson("/tests/201/runs", GLOBEX)).data.map(() => expect.anything()),
    );
    await emulator.org(key).addRun(201, "failed");
    expect((await getJson("/tests/201/runs", key)).data.length).toBe(
      (await getJson("/tests/201/runs", GLOBEX)).data.length + 1,
    );
    expect((await api("/tests/101/runs", key)).status).toBe(404);
  });
});

describe("runs", () => {
  it("adds a run at the top of the list with the given fields", async () => {
    const key = await emulator.newOrg();
    const run = await emulator.org(key).addRun(101, "failed", {
      failedSteps: 2,
      totalSteps: 9,
      oneLineSummary: "Cart total was $0",
      firstFailedStepNumber: 4,
      triggeredBy: "manual",
    });
    expect(run).toMatchObject({
      object: "testRun",
      testId: 101,
      status: "failed",
      failedSteps: 2,
      totalSteps: 9,
      triggeredBy: "manual",
      summary: { oneLineSummary: "Cart total was $0", firstFailedStepNumber: 4 },
    });
    expect(Math.abs(Date.parse(run.createdAt) - Date.now())).toBeLessThan(5000);
    const [top] = (await getJson("/tests/101/runs?limit=1", key)).data;
    expect(top).toEqual(run);
  });

  it("finishes a running run: endTime, durationMs and summary appear", async () => {
    const key = await emulator.newOrg();
    const running = await emulator.org(key).addRun(102, "running");
    expect(running).toMatchObject({ status: "running", endTime: null, durationMs: null, summary: null });
    await new Promise((r) => setTimeout(r, 15));
    const failed = await emulator.call<Json>("PATCH", `/runs/${running.id}`, {
      apiKey: key,
      status: "failed",
    });
    expect(failed.id).toBe(running.id);
    expect(failed.status).toBe("failed");
    expect(failed.durationMs).toBe(Date.parse(failed.endTime) - Date.parse(failed.startTime));
    expect(failed.durationMs).toBeGreaterThan(0);
    expect(failed.summary.oneLineSummary).toEqual(expect.any(String));
    const listed = (await getJson("/tests/102/runs?status=failed&limit=1", key)).data[0];
    expect(listed).toEqual(failed);
  });

  it("creates a new test with no runs", async () => {
    const key = await emulator.newOrg();
    const test = await emulator.org(key).addTest("Refund flow");
    expect(test).toEqual({
      id: expect.any(Number),
      name: "Refund flow",
      url: `https://app.getdecipher.com/tests/${test.id}`,
    });
    const list = await getJson(`/tests/${test.id}/runs`, key);
    expect(list).toMatchObject({ data: [], hasMore: false, nextCursor: null, test });
  });

  it("new-failure records passed runs and then one failed run, newest first in the list", async () => {
    const key = await emulator.newOrg();
    const { passed, failed } = await emulator.org(key).newFailure(102, 3);
    expect(passed).toHaveLength(3);
    const list = (await getJson("/tests/102/runs?limit=4", key)).data as { id: number; status: string }[];
    expect(list.map((r) => [r.id, r.status])).toEqual([
      [failed.id, "failed"],
      ...[...passed].reverse().map((id) => [id, "passed"]),
    ]);
    // Twenty passed runs unless told: the flaky window holds none of the test's older failures.
    expect((await emulator.org(key).newFailure(102)).passed).toHaveLength(20);
    await expect(
      emulator.call("POST", "/tests/102/new-failure", { apiKey: key, passedFirst: 0 }),
    ).rejects.toThrow(/400/);
  });

  it("refuses an unknown apiKey or status", async () => {
    await expect(emulator.org("dcp_none").addRun(101, "failed")).rejects.toThrow(/400/);
    await expect(
      emulator.call("POST", "/tests/101/runs", { apiKey: await emulator.newOrg(), status: "done" }),
    ).rejects.toThrow(/400/);
  });
});

describe("collections", () => {
  it("grow by new sessions with issues now, which appear in the default window", async () => {
    const key = await emulator.newOrg();
    const before = (await collection(501, key)).collection;
    const added = await emulator.org(key).grow(501, 3);
    expect(added.sessionIds).toHaveLength(3);
    const after = await collection(501, key, "?limit=3");
    expect(after.collection.sessionCount).toBe(before.sessionCount + 3);
    expect(after.collection.errorCount).toBeGreaterThanOrEqual(before.errorCount + 3);
    expect(after.collection.estimatedUsers).toBeGreaterThanOrEqual(before.estimatedUsers);
    expect(after.data.map((x: Json) => x.id).sort()).toEqual([...added.sessionIds].sort());
    const [first] = added.sessionIds;
    expect((await getJson(`/sessions/${first}/clicks`, key)).sessionId).toBe(first);
  });

  it("can be resolved and reopened", async () => {
    const key = await emulator.newOrg();
    expect((await emulator.org(key).resolve(501, true)).isResolved).toBe(true);
    expect((await collection(501, key)).collection.isResolved).toBe(true);
    expect((await collection(501, ACME)).collection.isResolved).toBe(false);
  });
});

describe("request counts and reset", () => {
  it("count API calls of one organization by route", async () => {
    const key = await emulator.newOrg();
    await getJson("/tests/101/runs", key);
    await getJson("/tests/102/runs", key);
    await getJson("/sessions", key);
    await api("/tests/abc/runs", key);
    const counts = await emulator.org(key).requests();
    expect(counts.byRoute).toEqual({
      testRuns: 3,
      sessions: 1,
      timeline: 0,
      clicks: 0,
      collectionSessions: 0,
    });
    expect(counts.total).toBe(4);
  });

  it("restore one organization to its template", async () => {
    const key = await emulator.newOrg();
    const original = (await getJson("/tests/101/runs?limit=100", key)).data.map((r: Json) => r.id);
    await emulator.org(key).addRun(101, "failed");
    await emulator.org(key).reset();
    expect((await getJson("/tests/101/runs?limit=100", key)).data.map((r: Json) => r.id)).toEqual(original);
  });
});

describe("simulation", () => {
  const tick = async (key: string): Promise<Json> => (await emulator.org(key).tick()).changes[key];

  it("is deterministic: the same ticks on two copies give the same runs and growth", async () => {
    const [a, b] = [await emulator.newOrg(), await emulator.newOrg()];
    const changesA = [await tick(a), await tick(a), await tick(a)];
    const changesB = [await tick(b), await tick(b), await tick(b)];
    expect(changesA).toEqual(changesB);
    const strip = (runs: Json[]) =>
      runs.map((r) => [r.id, r.status, r.failedSteps, r.summary?.oneLineSummary]);
    expect(strip((await getJson("/tests/101/runs", a)).data)).toEqual(
      strip((await getJson("/tests/101/runs", b)).data),
    );
  });

  it("shows failures, recoveries, a running run that fails later, and a growing collection", async () => {
    const key = await emulator.newOrg();
    const before = (await collection(501, key)).collection.sessionCount;
    const ticks = [await tick(key), await tick(key), await tick(key), await tick(key)];
    const runs = ticks.map((t: Json[]) =>
      t.filter((c) => c.kind === "run").map((c) => `${c.testId}:${c.status}`),
    );
    expect(runs[0]).toContain("101:failed");
    expect(runs[2]).toContain("101:passed");
    expect(runs[2]).toContain("102:passed");
    const startedRunning = ticks[0].find((c: Json) => c.kind === "run" && c.status === "running");
    const finished = ticks[1].find((c: Json) => c.kind === "runFinished" && c.runId === startedRunning.runId);
    expect(finished.status).toBe("failed");
    const run = (await getJson("/tests/103/runs?status=failed&limit=1", key)).data[0];
    expect(run.id).toBe(startedRunning.runId);
    const grown = (await collection(501, key)).collection.sessionCount;
    const added = ticks
      .flat()
      .filter((c: Json) => c.kind === "collectionGrew")
      .reduce((n: number, c: Json) => n + c.added, 0);
    expect(added).toBeGreaterThan(0);
    expect(grown).toBe(before + added);
  });
});

describe("GET /openapi.json", () => {
  it("describes the five endpoints, their errors and both ways to pass the key", async () => {
    const doc = await (await fetch(`${baseUrl()}/openapi.json`)).json<Json>();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/monitoring/issue-collections/{collectionId}/sessions",
      "/api/v1/sessions",
      "/api/v1/sessions/{sessionId}/clicks",
      "/api/v1/sessions/{sessionId}/timeline",
      "/api/v1/tests/{testId}/runs",
    ]);
    const runs = doc.paths["/api/v1/tests/{testId}/runs"].get;
    expect(runs.parameters.map((p: Json) => p.name)).toEqual([
      "testId",
      "status",
      "limit",
      "cursor",
      "since",
      "until",
    ]);
    expect(Object.keys(runs.responses)).toEqual(
      expect.arrayContaining(["200", "401", "404", "422", "429", "500"]),
    );
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
    });
  });
});
