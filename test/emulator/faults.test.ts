import { describe, expect, it } from "vitest";
import { api, emulator, type Json } from "./helpers.ts";

describe("fault injection", () => {
  it("fails the next N calls of a route with 429 and Retry-After, then recovers", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("testRuns", "429", 2, 7);
    for (let i = 0; i < 2; i++) {
      const res = await api("/tests/101/runs", key);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("7");
      expect((await res.json<Json>()).error).toMatchObject({ type: "rate_limit_error" });
    }
    expect((await api("/tests/101/runs", key)).status).toBe(200);
  });

  it("answers 500 api_error only on the chosen route", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("sessions", "500");
    expect((await api("/tests/101/runs", key)).status).toBe(200);
    const res = await api("/sessions", key);
    expect(res.status).toBe(500);
    expect((await res.json<Json>()).error.type).toBe("api_error");
    expect((await api("/sessions", key)).status).toBe(200);
  });

  it("returns 200 with broken JSON for 'malformed'", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("*", "malformed");
    const res = await api("/monitoring/issue-collections/501/sessions", key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    await expect(res.json()).rejects.toThrow();
  });

  it("holds a 'hang' until the client gives up", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("timeline", "hang");
    const started = Date.now();
    const call = api("/sessions/00000000-0000-4000-8000-000000000000/timeline", key, {
      signal: AbortSignal.timeout(300),
    });
    await expect(call).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await api("/sessions/00000000-0000-4000-8000-000000000000/timeline", key)).status).toBe(404);
  });

  it("affects only the organization it was set for", async () => {
    const [a, b] = [await emulator.newOrg(), await emulator.newOrg()];
    await emulator.org(a).fault("*", "500", 5);
    expect((await api("/sessions", b)).status).toBe(200);
    expect((await api("/sessions", a)).status).toBe(500);
    expect((await emulator.org(a).faults())[0]?.remaining).toBe(4);
    await emulator.org(a).clearFaults();
    expect((await api("/sessions", a)).status).toBe(200);
  });

  it("rejects an unknown kind or route", async () => {
    await expect(
      emulator.call("POST", "/faults", { route: "testRuns", kind: "teapot", count: 1 }),
    ).rejects.toThrow(/400/);
    await expect(emulator.call("POST", "/faults", { route: "runs", kind: "500", count: 1 })).rejects.toThrow(
      /400/,
    );
  });
});
