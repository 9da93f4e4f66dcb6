import { describe, expect, it } from "vitest";
import { ACME, api, baseUrl, emulator, errorOf, getJson, type Json } from "./helpers.ts";

const expectError = async (
  path: string,
  status: number,
  error: { type: string; code?: string; field?: string | null },
  key: string | null = ACME,
) => {
  const res = await errorOf(path, key);
  expect(res.status, path).toBe(status);
  expect(res.body.error, path).toMatchObject(error);
  expect(typeof res.body.error.message).toBe("string");
  return res;
};

describe("authentication", () => {
  it("rejects a missing key and an unknown key with 401 authentication_error", async () => {
    await expectError("/sessions", 401, { type: "authentication_error", field: null }, null);
    await expectError("/sessions", 401, { type: "authentication_error" }, "dcp_live_nope");
    const basic = await api("/sessions", null, { headers: { authorization: "Basic ZGNwOng=" } });
    expect(basic.status).toBe(401);
  });

  it("accepts the key as a Bearer token or in X-API-Key", async () => {
    expect((await api("/sessions?limit=1")).status).toBe(200);
    const viaHeader = await api("/sessions?limit=1", null, { headers: { "X-API-Key": ACME } });
    expect(viaHeader.status).toBe(200);
  });
});

describe("validation errors are 422 validation_error naming the field", () => {
  it.each([
    ["/tests/101/runs?limit=0", "limit"],
    ["/tests/101/runs?limit=101", "limit"],
    ["/tests/101/runs?limit=2.5", "limit"],
    ["/tests/101/runs?limit=ten", "limit"],
    ["/sessions?limit=101", "limit"],
    ["/monitoring/issue-collections/501/sessions?limit=51", "limit"],
    ["/tests/101/runs?status=broken", "status"],
    ["/tests/101/runs?status=PASSED", "status"],
    ["/monitoring/issue-collections/501/sessions?include=timeline,video", "include"],
    ["/sessions?since=yesterday", "since"],
    ["/sessions?until=2026-13-45T00:00:00Z", "until"],
    ["/tests/101/runs?since=2026-02-02T00:00:00Z&until=2026-02-01T00:00:00Z", "since"],
    ["/tests/abc/runs", "testId"],
    ["/monitoring/issue-collections/x1/sessions", "collectionId"],
    ["/sessions/12345/timeline", "sessionId"],
    ["/sessions?cursor=not-a-cursor", "cursor"],
  ])("%s → field %s", async (path, field) => {
    await expectError(path, 422, { type: "validation_error", field });
  });

  it("accepts the edges of each page-size range", async () => {
    for (const path of [
      "/tests/101/runs?limit=100",
      "/sessions?limit=1",
      "/monitoring/issue-collections/501/sessions?limit=50",
    ])
      expect((await api(path)).status, path).toBe(200);
  });
});

describe("cursors", () => {
  it("are opaque: neither the offset nor the position can be read from them", async () => {
    const { nextCursor } = await getJson("/sessions?limit=5");
    const decoded = atob(
      nextCursor
        .replace(/-/g, "+")
        .replace(/_/g, "/")
        .padEnd(Math.ceil(nextCursor.length / 4) * 4, "="),
    );
    expect(decoded).not.toMatch(/offset|org_|sessions|"t"/);
  });

  it("reject a tampered cursor", async () => {
    const { nextCursor } = await getJson("/sessions?limit=5");
    const flip = nextCursor[20] === "A" ? "B" : "A";
    const tampered = nextCursor.slice(0, 20) + flip + nextCursor.slice(21);
    await expectError(`/sessions?limit=5&cursor=${tampered}`, 422, {
      type: "validation_error",
      field: "cursor",
    });
  });

  it("are bound to the query that issued them", async () => {
    const { nextCursor } = await getJson("/tests/101/runs?limit=5");
    await expectError(`/tests/102/runs?cursor=${nextCursor}`, 422, {
      type: "validation_error",
      field: "cursor",
    });
    await expectError(`/tests/101/runs?status=failed&cursor=${nextCursor}`, 422, {
      type: "validation_error",
      field: "cursor",
    });
    await expectError(`/sessions?cursor=${nextCursor}`, 422, { type: "validation_error", field: "cursor" });
    // The page size may change between pages.
    expect((await api(`/tests/101/runs?limit=9&cursor=${nextCursor}`)).status).toBe(200);
  });

  it("are bound to the organization, even one holding the same data", async () => {
    const { nextCursor } = await getJson("/tests/101/runs?limit=5");
    await expectError(
      `/tests/101/runs?limit=5&cursor=${nextCursor}`,
      422,
      { type: "validation_error", field: "cursor" },
      await emulator.newOrg(),
    );
  });
});

describe("other errors", () => {
  it("answers 404 not_found_error for unknown ids and unknown paths", async () => {
    await expectError("/tests/999/runs", 404, { type: "not_found_error", code: "not_found" });
    await expectError("/monitoring/issue-collections/999/sessions", 404, { type: "not_found_error" });
    await expectError("/nothing-here", 404, { type: "not_found_error" });
  });

  it.each(["POST", "PUT", "PATCH", "DELETE"])("answers %s with 405 and Allow: GET", async (method) => {
    const res = await fetch(`${baseUrl()}/api/v1/tests/101/runs`, {
      method,
      headers: { authorization: `Bearer ${ACME}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET");
    expect((await res.json<Json>()).error).toMatchObject({
      type: "invalid_request_error",
      code: "method_not_allowed",
    });
  });
});
