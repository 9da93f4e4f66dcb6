import { describe, expect, it } from "vitest";
import { api, emulator, type Json } from "./helpers.ts";

// The vendor's harsher answers (issue #34): each injectable, each off until a test asks.

describe("deleted at Decipher", () => {
  it("a deleted test answers 404 not_found_error on its runs", async () => {
    const key = await emulator.newOrg();
    expect((await api("/tests/101/runs", key)).status).toBe(200);
    await emulator.org(key).deleteTest(101);
    const res = await api("/tests/101/runs", key);
    expect(res.status).toBe(404);
    expect((await res.json<Json>()).error).toMatchObject({ type: "not_found_error", code: "not_found" });
  });

  it("a deleted collection answers 404 on its sessions", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).deleteCollection(501);
    const res = await api("/monitoring/issue-collections/501/sessions", key);
    expect(res.status).toBe(404);
    expect((await res.json<Json>()).error.type).toBe("not_found_error");
  });

  it("401 and 403 faults answer authentication_error and authorization_error", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("testRuns", "401");
    await emulator.org(key).fault("collectionSessions", "403");
    const unauth = await api("/tests/101/runs", key);
    expect(unauth.status).toBe(401);
    expect((await unauth.json<Json>()).error.type).toBe("authentication_error");
    const forbidden = await api("/monitoring/issue-collections/501/sessions", key);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json<Json>()).error.type).toBe("authorization_error");
    expect((await api("/tests/101/runs", key)).status).toBe(200);
  });
});

describe("sloppy pages", () => {
  it("repeat-cursor: the page hands back the cursor the request sent", async () => {
    const key = await emulator.newOrg();
    const first = await (await api("/tests/101/runs?limit=5", key)).json<Json>();
    expect(first.nextCursor).toEqual(expect.any(String));
    await emulator.org(key).fault("testRuns", "repeat-cursor");
    const second = await (await api(`/tests/101/runs?limit=5&cursor=${first.nextCursor}`, key)).json<Json>();
    expect(second.data).toHaveLength(5);
    expect(second.hasMore).toBe(true);
    expect(second.nextCursor).toBe(first.nextCursor);
  });

  it("empty-has-more: no items, yet hasMore and a cursor", async () => {
    const key = await emulator.newOrg();
    await emulator.org(key).fault("testRuns", "empty-has-more");
    const page = await (await api("/tests/101/runs?limit=5", key)).json<Json>();
    expect(page.data).toEqual([]);
    expect(page.hasMore).toBe(true);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("mixed-order: a page's items come oldest first in a newest-first list", async () => {
    const key = await emulator.newOrg();
    const clean = await (await api("/tests/101/runs?limit=5", key)).json<Json>();
    await emulator.org(key).fault("testRuns", "mixed-order");
    const mixed = await (await api("/tests/101/runs?limit=5", key)).json<Json>();
    expect(mixed.data.map((r: Json) => r.id)).toEqual(clean.data.map((r: Json) => r.id).reverse());
  });
});

describe("a rerun under one run id", () => {
  it("failed → running → passed keeps the id and the list shows its latest status", async () => {
    const key = await emulator.newOrg();
    const org = emulator.org(key);
    const { id } = await org.addTest("Rerun me");
    const run = await org.addRun(id, "failed");
    await org.setRun(run.id, "running");
    let page = await (await api(`/tests/${id}/runs`, key)).json<Json>();
    expect(page.data).toEqual([expect.objectContaining({ id: run.id, status: "running" })]);
    await org.setRun(run.id, "passed");
    page = await (await api(`/tests/${id}/runs`, key)).json<Json>();
    expect(page.data).toEqual([expect.objectContaining({ id: run.id, status: "passed" })]);
  });
});
