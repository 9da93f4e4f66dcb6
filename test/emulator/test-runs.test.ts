import { describe, expect, it } from "vitest";
import { ACME, allPages, errorOf, GLOBEX, getJson, isIso, isNewestFirst } from "./helpers.ts";

describe("GET /api/v1/tests/:testId/runs", () => {
  it("answers a list envelope with the test and 20 runs by default, newest first", async () => {
    const body = await getJson("/tests/101/runs");
    expect(Object.keys(body).sort()).toEqual(["data", "hasMore", "nextCursor", "object", "test"]);
    expect(body.object).toBe("list");
    expect(body.test).toEqual({
      id: 101,
      name: "Checkout flow",
      url: "https://app.getdecipher.com/tests/101",
    });
    expect(body.data).toHaveLength(20);
    expect(body.hasMore).toBe(true);
    expect(typeof body.nextCursor).toBe("string");
    expect(isNewestFirst(body.data.map((r: { createdAt: string }) => r.createdAt))).toBe(true);
  });

  it("gives every run the documented fields and types", async () => {
    const { data } = await getJson("/tests/101/runs?limit=100");
    for (const run of data) {
      expect(run).toMatchObject({ object: "testRun", testId: 101, triggeredBy: expect.any(String) });
      expect(
        Number.isInteger(run.id) && Number.isInteger(run.totalSteps) && Number.isInteger(run.failedSteps),
      ).toBe(true);
      expect(isIso(run.startTime) && isIso(run.createdAt) && isIso(run.endTime)).toBe(true);
      expect(Number.isInteger(run.durationMs)).toBe(true);
      expect(Date.parse(run.endTime) - Date.parse(run.startTime)).toBe(run.durationMs);
      expect(typeof run.summary.oneLineSummary).toBe("string");
    }
    const failed = data.filter((r: { status: string }) => r.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    for (const run of failed) {
      expect(run.failedSteps).toBeGreaterThan(0);
      expect(Number.isInteger(run.summary.firstFailedStepNumber)).toBe(true);
    }
  });

  it("shows the scenarios of the demo: 101 recently failed, 102 failing, 103 running", async () => {
    const recent101 = (await getJson("/tests/101/runs?limit=3")).data.map(
      (r: { status: string }) => r.status,
    );
    expect(recent101).toContain("failed");
    expect(recent101[0]).toBe("passed");
    const recent102 = (await getJson("/tests/102/runs?limit=3")).data.map(
      (r: { status: string }) => r.status,
    );
    expect(recent102).toEqual(["failed", "failed", "failed"]);
    const [running] = (await getJson("/tests/103/runs?limit=1")).data;
    expect(running).toMatchObject({ status: "running", endTime: null, durationMs: null, summary: null });
  });

  it.each(["passed", "failed", "running"])("filters by status=%s", async (status) => {
    const all = (await getJson("/tests/103/runs?limit=100")).data;
    const only = (await getJson(`/tests/103/runs?limit=100&status=${status}`)).data;
    expect(only.length).toBe(all.filter((r: { status: string }) => r.status === status).length);
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((r: { status: string }) => r.status === status)).toBe(true);
  });

  it("treats status=all as no filter", async () => {
    const all = await getJson("/tests/102/runs?limit=100&status=all");
    expect(all.data).toEqual((await getJson("/tests/102/runs?limit=100")).data);
  });

  it("filters by since and until on createdAt, both inclusive", async () => {
    const { data } = await getJson("/tests/101/runs?limit=100");
    const [newer, , older] = [data[2].createdAt, null, data[6].createdAt];
    const window = (await getJson(`/tests/101/runs?limit=100&since=${older}&until=${newer}`)).data;
    expect(window.map((r: { id: number }) => r.id)).toEqual(
      data.slice(2, 7).map((r: { id: number }) => r.id),
    );
  });

  it("pages through every run once, in order", async () => {
    const pages = await allPages("/tests/101/runs?limit=7");
    const ids = pages.flatMap((p) => p.data.map((r: { id: number }) => r.id));
    const all = (await getJson("/tests/101/runs?limit=100")).data.map((r: { id: number }) => r.id);
    expect(ids).toEqual(all);
    expect(new Set(ids).size).toBe(ids.length);
    expect(pages.at(-1).hasMore).toBe(false);
    expect(pages.at(-1).nextCursor).toBeNull();
  });

  it("keeps organizations apart: another org's test is not found", async () => {
    expect((await errorOf("/tests/201/runs", ACME)).status).toBe(404);
    expect((await errorOf("/tests/101/runs", GLOBEX)).body.error).toMatchObject({
      type: "not_found_error",
      code: "not_found",
    });
    expect((await getJson("/tests/201/runs", GLOBEX)).test.name).toBe("Onboarding wizard");
  });
});
