import { describe, expect, it } from "vitest";
import { mutedNote, snoozedNote } from "../../src/engine/apply-triage.ts";

const AT = "2026-02-16T11:00:00.000Z";

describe("the reply to Snooze", () => {
  it("names when a timed snooze ends, as a Slack date token", () => {
    const until = "2026-02-16T13:00:00.000Z";
    const note = snoozedNote({ until, choice: { kind: "for", hours: 1 }, countAtStart: null, at: until });
    expect(note).toContain(`until <!date^${Date.parse(until) / 1000}^`);
    expect(note).not.toContain("until the snooze ends");
  });

  it("names the event that ends an untimed snooze", () => {
    expect(snoozedNote({ until: null, choice: { kind: "until-pass" }, countAtStart: null, at: AT })).toMatch(
      /^Snoozed until a run of this test passes:/,
    );
  });

  it("names the count and the moment an until-growth snooze counts from, never 'now'", () => {
    const note = snoozedNote({
      until: null,
      choice: { kind: "until-growth", sessions: 5 },
      countAtStart: 12,
      at: AT,
    });
    expect(note).toMatch(/^Snoozed until it has 5 more sessions than the 12 it had <!date\^/);
    expect(note).toContain(`<!date^${Date.parse(AT) / 1000}^`);
    expect(note).not.toMatch(/\bnow\b/);
  });
});

describe("the reply to Mute", () => {
  it("says a running snooze ends with the mute, naming it", () => {
    const until = "2026-02-16T13:00:00.000Z";
    const note = mutedNote("test", 101, {
      until,
      choice: { kind: "for", hours: 1 },
      countAtStart: null,
      at: AT,
    });
    expect(note).toMatch(/^Muted: this channel gets no alerts for this test/);
    expect(note).toContain(`Its snooze (until <!date^${Date.parse(until) / 1000}^`);
    expect(note).toContain("ends with the mute");
  });

  it("says nothing of a snooze when there was none", () => {
    expect(mutedNote("collection", 501, null)).not.toContain("snooze");
  });
});
