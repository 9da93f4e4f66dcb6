import { describe, expect, it } from "vitest";
import { ACME, allPages, errorOf, GLOBEX, getJson, isIso, type Json } from "./helpers.ts";

const path = (id: number, query = "") => `/monitoring/issue-collections/${id}/sessions${query}`;
const HOUR = 3_600_000;
const longAgo = new Date(Date.now() - 30 * 24 * HOUR).toISOString();

describe("GET /api/v1/monitoring/issue-collections/:id/sessions", () => {
  it("answers the collection, lightweight items, the 24 h default window and no screenshots", async () => {
    const before = Date.now();
    const body = await getJson(path(501));
    expect(Object.keys(body).sort()).toEqual(
      [
        "collection",
        "data",
        "hasMore",
        "includes",
        "nextCursor",
        "object",
        "screenshotsExpiresAt",
        "window",
      ].sort(),
    );
    expect(body.collection).toMatchObject({
      id: 501,
      isResolved: false,
      type: expect.any(String),
      rootCause: expect.any(String),
    });
    for (const k of ["errorCount", "sessionCount", "estimatedUsers"])
      expect(Number.isInteger(body.collection[k])).toBe(true);
    expect(body.includes).toEqual([]);
    expect(body.screenshotsExpiresAt).toBeNull();
    const until = Date.parse(body.window.until);
    expect(Math.abs(until - before)).toBeLessThan(5000);
    expect(until - Date.parse(body.window.since)).toBe(24 * HOUR);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(10);
    for (const item of body.data) {
      expect(item).toMatchObject({
        object: "session",
        userUsername: expect.any(String),
        userPlan: expect.any(String),
        userRole: expect.any(String),
      });
      expect(item).not.toHaveProperty("timeline");
      expect(item).not.toHaveProperty("clicks");
      expect(item).not.toHaveProperty("errorScreenshots");
      const issue = item.representativeIssue;
      expect(isIso(issue.latestIssueAt)).toBe(true);
      expect(Date.parse(issue.latestIssueAt)).toBeGreaterThanOrEqual(Date.parse(body.window.since));
      expect(issue.shortenedPath).toBe("/checkout/payment");
      expect(Object.keys(issue.aiSummary).sort()).toEqual([
        "behavior",
        "category",
        "errorText",
        "productFeature",
        "reasoning",
      ]);
    }
  });

  it("embeds the timeline without object and sessionId when include=timeline", async () => {
    const body = await getJson(path(501, "?include=timeline&limit=50"));
    expect(body.includes).toEqual(["timeline"]);
    expect(body.screenshotsExpiresAt).toBeNull();
    const item = body.data.find((x: Json) => x.hasTimeline);
    expect(Object.keys(item.timeline).sort()).toEqual(["loadingIssues", "overview", "pages", "tags"]);
    const { object, sessionId, ...standalone } = await getJson(`/sessions/${item.id}/timeline`);
    expect(object).toBe("sessionTimeline");
    expect(sessionId).toBe(item.id);
    expect(item.timeline).toEqual(standalone);
    for (const x of body.data) expect("timeline" in x).toBe(x.hasTimeline);
  });

  it("adds clicks with include=clicks, and clicks plus errorScreenshots with include=screenshots", async () => {
    const clicks = await getJson(path(501, "?include=clicks&limit=50"));
    expect(clicks.data.every((x: Json) => Array.isArray(x.clicks) && !("errorScreenshots" in x))).toBe(true);
    const shots = await getJson(path(501, "?include=screenshots&limit=50"));
    expect(shots.includes).toEqual(["screenshots"]);
    expect(shots.data.every((x: Json) => Array.isArray(x.clicks))).toBe(true);
    for (const x of shots.data) {
      expect(x.errorScreenshots.main).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/screenshots\/org_\w+\//);
      expect(x.errorScreenshots.after).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/screenshots\/org_\w+\//);
    }
    const hoursAhead = (Date.parse(shots.screenshotsExpiresAt) - Date.now()) / HOUR;
    expect(hoursAhead).toBeGreaterThan(2.9);
    expect(hoursAhead).toBeLessThan(3.1);
    const every = await getJson(path(501, "?include=screenshots,timeline,clicks"));
    expect(every.includes).toEqual(["timeline", "clicks", "screenshots"]);
  });

  it("applies since and until to the issue time", async () => {
    const since = new Date(Date.now() - 72 * HOUR).toISOString();
    const until = new Date(Date.now() - 24 * HOUR).toISOString();
    const body = await getJson(path(501, `?limit=50&since=${since}&until=${until}`));
    expect(body.window).toEqual({ since, until });
    expect(body.data.length).toBeGreaterThan(0);
    for (const x of body.data) {
      const t = Date.parse(x.representativeIssue.latestIssueAt);
      expect(t >= Date.parse(since) && t <= Date.parse(until)).toBe(true);
    }
  });

  it("pages to exhaustion within one window, newest issue first, without duplicates", async () => {
    const pages = await allPages(path(501, `?limit=3&since=${longAgo}`));
    const ids = pages.flatMap((p) => p.data.map((x: Json) => x.id));
    const all = (await getJson(path(501, `?limit=50&since=${longAgo}`))).data.map((x: Json) => x.id);
    expect(ids).toEqual(all);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(pages[0].collection.sessionCount);
    const times = pages.flatMap((p) =>
      p.data.map((x: Json) => Date.parse(x.representativeIssue.latestIssueAt)),
    );
    expect(times.every((t, i) => i === 0 || (times[i - 1] as number) >= t)).toBe(true);
    expect(new Set(pages.map((p) => JSON.stringify(p.window))).size).toBe(1);
  });

  it("keeps the first page's window on later pages when none is given", async () => {
    const first = await getJson(path(501, "?limit=2"));
    expect(first.hasMore).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    const second = await getJson(path(501, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`));
    expect(second.window).toEqual(first.window);
  });

  it("shows the resolved collection 502, whose sessions are older than a day", async () => {
    const body = await getJson(path(502));
    expect(body.collection).toMatchObject({ id: 502, isResolved: true });
    expect(body.data).toEqual([]);
    expect(body.hasMore).toBe(false);
    expect(body.nextCursor).toBeNull();
    expect((await getJson(path(502, `?since=${longAgo}`))).data.length).toBeGreaterThan(0);
  });

  it("scopes collections to their organization", async () => {
    expect((await errorOf(path(601), ACME)).status).toBe(404);
    expect((await errorOf(path(501), GLOBEX)).status).toBe(404);
    expect((await getJson(path(601), GLOBEX)).collection.id).toBe(601);
  });
});
