import { describe, expect, it } from "vitest";
import { allPages, errorOf, GLOBEX, getJson, isIso, isNewestFirst, type Json } from "./helpers.ts";

const q = (email: string) => `/sessions?limit=100&userEmail=${encodeURIComponent(email)}`;

describe("GET /api/v1/sessions", () => {
  it("lists 20 session summaries by default, newest first, with every documented field", async () => {
    const body = await getJson("/sessions");
    expect(Object.keys(body).sort()).toEqual(["data", "hasMore", "nextCursor", "object"]);
    expect(body.data).toHaveLength(20);
    expect(isNewestFirst(body.data.map((s: Json) => s.createdAt))).toBe(true);
    for (const s of body.data) {
      expect(Object.keys(s).sort()).toEqual(
        [
          "object",
          "id",
          "url",
          "createdAt",
          "duration",
          "userEmail",
          "userId",
          "userAccount",
          "browser",
          "device",
          "countryCode",
          "hasTimeline",
        ].sort(),
      );
      expect(s.object).toBe("session");
      expect(s.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(s.url).toBe(`https://app.getdecipher.com/sessions/${s.id}`);
      expect(isIso(s.createdAt)).toBe(true);
      expect(s.duration === null || Number.isInteger(s.duration)).toBe(true);
      expect(typeof s.hasTimeline).toBe("boolean");
    }
  });

  it("has sessions still being recorded (duration null) and sessions without a timeline", async () => {
    const { data } = await getJson("/sessions?limit=100");
    expect(data.some((s: Json) => s.duration === null)).toBe(true);
    expect(data.some((s: Json) => !s.hasTimeline)).toBe(true);
  });

  it("matches userEmail exactly: jane@ and jane+qa@ are different users", async () => {
    const jane = (await getJson(q("jane@acme.com"))).data;
    const qa = (await getJson(q("jane+qa@acme.com"))).data;
    expect(jane.length).toBeGreaterThan(25);
    expect(qa.length).toBeGreaterThan(0);
    expect(jane.every((s: Json) => s.userEmail === "jane@acme.com")).toBe(true);
    expect(qa.every((s: Json) => s.userEmail === "jane+qa@acme.com")).toBe(true);
    expect((await getJson(q("JANE@ACME.COM"))).data).toHaveLength(jane.length);
  });

  it.each(["józef@acme.com", "王芳@acme.com"])("finds non-ASCII users (%s)", async (email) => {
    const { data } = await getJson(q(email));
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((s: Json) => s.userEmail === email)).toBe(true);
  });

  it("filters by userId and by a visited URL", async () => {
    const byId = (await getJson("/sessions?limit=100&userId=usr_jozef")).data;
    expect(byId.length).toBeGreaterThan(0);
    expect(byId.every((s: Json) => s.userEmail === "józef@acme.com")).toBe(true);
    const all = (await getJson("/sessions?limit=100")).data;
    const payment = (await getJson(`/sessions?limit=100&url=${encodeURIComponent("/checkout/payment")}`))
      .data;
    expect(payment.length).toBeGreaterThan(0);
    expect(payment.length).toBeLessThan(all.length);
    expect((await getJson("/sessions?url=nowhere.example")).data).toEqual([]);
  });

  it("filters by since and until on createdAt", async () => {
    const now = Date.now();
    const since = new Date(now - 24 * 3_600_000).toISOString();
    const recent = (await getJson(`/sessions?limit=100&since=${since}`)).data;
    expect(recent.length).toBeGreaterThan(0);
    expect(recent.every((s: Json) => Date.parse(s.createdAt) >= Date.parse(since))).toBe(true);
    const older = (await getJson(`/sessions?limit=100&until=${since}`)).data;
    expect(older.every((s: Json) => Date.parse(s.createdAt) <= Date.parse(since))).toBe(true);
    expect(recent.length + older.length).toBe((await getJson("/sessions?limit=100")).data.length);
  });

  it("pages jane's sessions to exhaustion with no duplicates and no gaps", async () => {
    const pages = await allPages(`/sessions?limit=4&userEmail=${encodeURIComponent("jane@acme.com")}`);
    const ids = pages.flatMap((p) => p.data.map((s: Json) => s.id));
    const expected = (await getJson(q("jane@acme.com"))).data.map((s: Json) => s.id);
    expect(pages.length).toBe(Math.ceil(expected.length / 4));
    expect(ids).toEqual(expected);
    expect(pages.at(-1).nextCursor).toBeNull();
  });

  it("shows each organization only its own sessions", async () => {
    const globex = (await getJson("/sessions?limit=100", GLOBEX)).data;
    const acme = new Set((await getJson("/sessions?limit=100")).data.map((s: Json) => s.id));
    expect(globex.length).toBeGreaterThan(0);
    expect(globex.some((s: Json) => acme.has(s.id))).toBe(false);
    expect(globex.every((s: Json) => s.userEmail.endsWith("@globex.com"))).toBe(true);
  });
});

const sessions = async (key?: string) => (await getJson("/sessions?limit=100", key)).data as Json[];

describe("GET /api/v1/sessions/:id/timeline", () => {
  it("returns the AI timeline with pages, activities, tags and loading issues", async () => {
    const s = (await sessions()).find((x) => x.hasTimeline);
    const t = await getJson(`/sessions/${s.id}/timeline`);
    expect(Object.keys(t).sort()).toEqual([
      "loadingIssues",
      "object",
      "overview",
      "pages",
      "sessionId",
      "tags",
    ]);
    expect(t).toMatchObject({ object: "sessionTimeline", sessionId: s.id, overview: expect.any(String) });
    expect(t.pages.length).toBeGreaterThan(0);
    for (const p of t.pages) {
      expect(typeof p.page).toBe("string");
      expect(p.startTime).toBeLessThanOrEqual(p.endTime);
      expect(Number.isInteger(p.clickCount)).toBe(true);
      for (const a of p.activities) expect(isIso(a.startTime) && isIso(a.endTime)).toBe(true);
    }
    for (const tag of t.tags) expect(tag).toEqual({ tag: expect.any(String), reasoning: expect.any(String) });
  });

  it("has at least one overview longer than 3000 characters", async () => {
    const withTimeline = (await sessions()).filter((x) => x.hasTimeline);
    const lengths = await Promise.all(
      withTimeline.map(async (s) => (await getJson(`/sessions/${s.id}/timeline`)).overview.length as number),
    );
    expect(Math.max(...lengths)).toBeGreaterThan(3000);
  });

  it("answers 404 'Session or timeline not found' for a session without a timeline", async () => {
    const s = (await sessions()).find((x) => !x.hasTimeline);
    const { status, body } = await errorOf(`/sessions/${s.id}/timeline`);
    expect(status).toBe(404);
    expect(body.error).toEqual({
      type: "not_found_error",
      code: "not_found",
      message: "Session or timeline not found",
      field: null,
    });
  });

  it("answers 404 for an unknown session and for another organization's session", async () => {
    expect((await errorOf("/sessions/00000000-0000-4000-8000-000000000000/timeline")).status).toBe(404);
    const foreign = (await sessions(GLOBEX)).find((x) => x.hasTimeline);
    expect((await errorOf(`/sessions/${foreign.id}/timeline`)).status).toBe(404);
  });
});

describe("GET /api/v1/sessions/:id/clicks", () => {
  it("returns every click with before/after screenshot URLs that expire in about 3 hours", async () => {
    const all = await sessions();
    const bodies = await Promise.all(all.slice(0, 12).map((s) => getJson(`/sessions/${s.id}/clicks`)));
    const body = bodies.find((b) => b.data.length > 0);
    expect(Object.keys(body).sort()).toEqual(["data", "object", "screenshotsExpiresAt", "sessionId"]);
    expect(body.object).toBe("sessionClicks");
    const hoursAhead = (Date.parse(body.screenshotsExpiresAt) - Date.now()) / 3_600_000;
    expect(hoursAhead).toBeGreaterThan(2.9);
    expect(hoursAhead).toBeLessThan(3.1);
    for (const c of body.data) {
      expect(Number.isInteger(c.id) && Number.isInteger(c.clickCount)).toBe(true);
      expect(typeof c.type).toBe("string");
      expect(typeof c.timestamp).toBe("number");
      expect(typeof c.navigationTo).toBe("string");
      expect(c.screenshots.before).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/screenshots\/.+before\.png\?expires=\d+/,
      );
      expect(c.screenshots.after).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/screenshots\/.+after\.png\?expires=\d+/,
      );
    }
    const empty = bodies.find((b) => b.data.length === 0);
    if (empty) expect(empty.screenshotsExpiresAt).toBeNull();
  });

  it("answers 404 for an unknown session and 422 for an id that is not a UUID", async () => {
    const missing = await errorOf("/sessions/00000000-0000-4000-8000-000000000000/clicks");
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe("not_found_error");
    const bad = await errorOf("/sessions/not-a-uuid/clicks");
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ type: "validation_error", field: "sessionId" });
  });
});
