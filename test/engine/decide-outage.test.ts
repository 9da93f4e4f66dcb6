import { describe, expect, it } from "vitest";
import { afterJoin, decideOutage } from "../../src/engine/decide-outage.ts";
import type { HeldFailure } from "../../src/model/held-failure.ts";
import type { PostedOutage } from "../../src/model/outage.ts";

const NOW = new Date("2026-03-02T10:00:00.000Z");
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

const held = (testId: number, runId: number, extra: Partial<HeldFailure> = {}): HeldFailure => ({
  testId,
  testName: `Test ${testId}`,
  runId,
  summary: null,
  ...extra,
});

/** An outage message posted `m` minutes ago naming `items`, every one delivered. */
function posted(m: number, items: HeldFailure[], extra: Partial<PostedOutage> = {}): PostedOutage {
  return {
    key: `outage:${minutesAgo(m)}`,
    at: minutesAgo(m),
    items,
    subscribed: 10,
    ts: "1700000000.000100",
    named: items.map((i) => i.runId),
    ...extra,
  };
}

describe("decideOutage, the channel's outage policy", () => {
  it("opens an outage when three tests fail together, and lets two of ten alert alone", () => {
    const three = [held(1, 11), held(2, 21), held(3, 31)];
    const opened = decideOutage({ earlier: null, open: three, subscribed: 10, now: NOW });
    expect(opened.kind).toBe("open");
    if (opened.kind === "open") {
      expect(opened.outage).toMatchObject({
        ts: null,
        named: [],
        items: three,
        key: `outage:${NOW.toISOString()}`,
      });
      expect(opened.outage.recovered).toBeUndefined();
    }
    expect(decideOutage({ earlier: null, open: three.slice(0, 2), subscribed: 10, now: NOW }).kind).toBe(
      "alone",
    );
  });

  it("calls two of two tests an outage (most of the channel failing)", () => {
    expect(
      decideOutage({ earlier: null, open: [held(1, 11), held(2, 21)], subscribed: 2, now: NOW }).kind,
    ).toBe("open");
  });

  it("names a failure whose next run passed as passed again from the start", () => {
    const open = [held(1, 11, { passedNext: true }), held(2, 21), held(3, 31)];
    const opened = decideOutage({ earlier: null, open, subscribed: 10, now: NOW });
    expect(opened.kind === "open" && opened.outage.recovered).toEqual([1]);
    expect(opened.kind === "open" && opened.outage.lastRecoveredAt).toBe(NOW.toISOString());
  });

  it("joins a failure to an outage still going on, even alone, and only the runs it does not name yet", () => {
    const earlier = posted(20, [held(1, 11), held(2, 21), held(3, 31)]);
    const choice = decideOutage({ earlier, open: [held(4, 41)], subscribed: 10, now: NOW });
    expect(choice.kind).toBe("join");
    if (choice.kind !== "join") return;
    expect(choice.fresh.map((i) => i.runId)).toEqual([41]);
    expect(choice.outage.items.map((i) => i.runId)).toEqual([11, 21, 31, 41]);
    // A retried cycle: the runs it names already are not fresh.
    const retried = decideOutage({ earlier, open: [held(1, 11)], subscribed: 10, now: NOW });
    expect(retried.kind === "join" && retried.fresh).toEqual([]);
  });

  it("starts afresh once the outage is over: an hour old, or all passed a quiet period ago", () => {
    const items = [held(1, 11), held(2, 21), held(3, 31)];
    expect(
      decideOutage({ earlier: posted(61, items), open: [held(4, 41)], subscribed: 10, now: NOW }).kind,
    ).toBe("alone");
    const recoveredLongAgo = posted(30, items, { recovered: [1, 2, 3], lastRecoveredAt: minutesAgo(11) });
    expect(
      decideOutage({ earlier: recoveredLongAgo, open: [held(4, 41)], subscribed: 10, now: NOW }).kind,
    ).toBe("alone");
    const recoveredJustNow = posted(30, items, { recovered: [1, 2, 3], lastRecoveredAt: minutesAgo(2) });
    expect(
      decideOutage({ earlier: recoveredJustNow, open: [held(4, 41)], subscribed: 10, now: NOW }).kind,
    ).toBe("join");
  });
});

describe("afterJoin", () => {
  it("marks a test named again as failing again, unless its next run had passed already", () => {
    const outage = posted(
      10,
      [held(1, 11), held(2, 21), held(3, 31), held(1, 12), held(2, 22, { passedNext: true })],
      {
        recovered: [1],
      },
    );
    const joined = afterJoin(outage, [held(1, 12), held(2, 22, { passedNext: true })], NOW);
    expect(joined.recovered).toEqual([2]);
    expect(joined.lastRecoveredAt).toBe(NOW.toISOString());
  });

  it("leaves the record as it was when Slack named none of the fresh runs", () => {
    const outage = posted(10, [held(1, 11), held(2, 21), held(3, 31)], { recovered: [1] });
    const joined = afterJoin(outage, [held(1, 12)], NOW);
    expect(joined.recovered).toEqual([1]);
    expect(joined.lastRecoveredAt).toBeUndefined();
  });
});
