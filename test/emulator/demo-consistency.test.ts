import { describe, expect, it } from "vitest";
import { generateOrg } from "../../dev/emulator/data/generate-org.ts";

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
});
