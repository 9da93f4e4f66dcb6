import { describe, expect, it } from "vitest";
import { generateOrg } from "../../dev/emulator/data/generate-org.ts";
import { addCollectionSessions, addPageSessions } from "../../dev/emulator/mutations.ts";

// A new user reads the demo as real data: a click that led to a page the timeline says the
// user was not on, or a session that lasted longer than it has existed, reads as a bug.
const NOW = Date.parse("2026-11-29T12:00:00.000Z");
const orgs = (["acme", "globex"] as const).map((template, i) =>
  generateOrg(template, 7 + i, NOW, { id: `org-${i}`, name: template, apiKey: `dcp_demo_${template}` }),
);

describe("the demo data agrees with itself", () => {
  it("each click leads to a page the session's timeline has the user on a second later", () => {
    let checked = 0;
    for (const session of orgs.flatMap((o) => o.sessions)) {
      const pages = session.timeline?.pages ?? [];
      for (const click of session.clicks) {
        if (pages.length === 0) continue;
        const t = click.timestamp + 1;
        const on = pages.find((p) => t >= p.startTime && t < p.endTime) ?? pages.at(-1);
        expect(click.navigationTo, `session ${session.id} click at ${click.timestamp}s`).toBe(on?.page);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("no finished session lasted longer than it has existed", () => {
    const sessions = orgs.flatMap((o) => o.sessions).filter((s) => s.duration !== null);
    expect(sessions.length).toBeGreaterThan(20);
    for (const s of sessions) expect(s.createdAt + (s.duration ?? 0) * 1000).toBeLessThanOrEqual(NOW);
  });

  it("no session the running demo adds (a collection's growth, traffic on a page) lasted longer than it has existed", () => {
    // The sandbox's growth replies and /sessions listed "⏱️ 26 m 33 s" for a session begun at
    // 9:20, read at 9:29, with clicks "at 24:49" into it: at 9:44, a quarter of an hour ahead.
    const [org] = orgs;
    const collection = org?.collections[0];
    if (!org || !collection) throw new Error("the acme demo has a collection");
    const later = NOW + 60_000;
    const ids = new Set([
      ...addCollectionSessions(org, collection, 40, later),
      ...addPageSessions(org, "/checkout", 40, later, 5 * 60_000),
    ]);
    const added = org.sessions.filter((s) => ids.has(s.id) && s.duration !== null);
    expect(added.length).toBeGreaterThan(20);
    for (const s of added) {
      expect(s.createdAt + (s.duration ?? 0) * 1000, `session ${s.id}`).toBeLessThanOrEqual(later);
      for (const click of s.clicks) expect(click.timestamp).toBeLessThanOrEqual(s.duration ?? 0);
    }
  });

  it("no AI overview says the same sentence twice", () => {
    // The sandbox's /sessions jane@acme.com read "They hesitated on /cart, moving the pointer
    // between options without clicking, which suggests the choice was unclear." twice in a row.
    const overviews = orgs
      .flatMap((o) => o.sessions)
      .flatMap((s) => (s.timeline ? [s.timeline.overview] : []));
    expect(overviews.length).toBeGreaterThan(20);
    for (const text of overviews) {
      const sentences = text.split(/(?<=\.)\s+/);
      expect(new Set(sentences).size, text.slice(0, 120)).toBe(sentences.length);
    }
  });
});
