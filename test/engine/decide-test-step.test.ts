import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FLAKY_THREAD_TS,
  type History,
  playHistory,
  type RunPlan,
  type Shown,
  type SlackAnswer,
} from "../helpers/decide-history.ts";

// The decision function against generated histories: runs in any order, with gaps, reruns
// (a status that changes), absurd createdAt values, options, snoozes, outage messages naming
// held runs, and a Slack that answers, refuses, or stores a post and loses the answer.
// Whatever happens, once Slack behaves, every failed run ends with one visible fate, and the
// channel tells each run at most once, in whichever form.

const VISIBLE = new Set(["announced", "threaded", "grouped", "counted", "recovered", "baseline"]);

const runPlan = (id: number) =>
  fc.record({
    id: fc.constant(id),
    statuses: fc.array(fc.constantFrom<"passed" | "failed" | "running">("passed", "failed", "running"), {
      minLength: 1,
      maxLength: 3,
    }),
    appearsAt: fc.integer({ min: 0, max: 7 }),
    createdAt: fc.constantFrom<RunPlan["createdAt"]>(
      "normal",
      "normal",
      "normal",
      "future",
      "ancient",
      "garbage",
    ),
    trigger: fc.constantFrom<RunPlan["trigger"]>("schedule", "schedule", "manual"),
  });

const histories: fc.Arbitrary<History> = fc.record({
  plans: fc
    .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 12 })
    .chain((ids) => fc.tuple(...ids.map((id) => runPlan(10_000 + id)))),
  options: fc.record({
    after: fc.integer({ min: 1, max: 3 }),
    trigger: fc.constantFrom<string | null>(null, null, "schedule"),
    flaky: fc.constantFrom<"thread" | "digest" | "alert">("thread", "digest", "alert"),
  }),
  answers: fc.array(fc.constantFrom<SlackAnswer>("ok", "ok", "ok", "error", "lost"), {
    minLength: 1,
    maxLength: 8,
  }),
  snoozeMinutes: fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
  flakyToday: fc.boolean(),
  outages: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
});

/** Every failed run has a visible fate; a fate naming a message names one Slack has; no run told twice. */
function expectAccounted({ ledger, slack, timesTold }: Shown) {
  for (const [runId, n] of timesTold) expect(n, `run ${runId} told ${n} times`).toBe(1);
  const held = new Set(slack.values());
  for (const row of ledger.values()) {
    if (row.status !== "failed") continue;
    expect(row.fate !== null && VISIBLE.has(row.fate), `run ${row.id}: fate ${row.fate}`).toBe(true);
    if (row.fate === "announced" || row.fate === "threaded") expect(held.has(row.ts ?? "")).toBe(true);
    if (row.fate === "grouped")
      expect(slack.has(`run:${row.id}`), `run ${row.id} grouped and alone`).toBe(false);
    if (row.fate === "announced" || row.fate === "threaded" || row.fate === "grouped")
      expect(timesTold.get(row.id), `run ${row.id} recorded as told`).toBe(1);
  }
}

describe("decideTestStep over generated histories", () => {
  it("every failed run ends with one visible fate, and the channel tells no run twice", () => {
    fc.assert(
      fc.property(histories, (history) => expectAccounted(playHistory(history))),
      { numRuns: 300 },
    );
  });

  it("a reply whose answer was lost, whose first run the vendor then calls passed: its other failure is told once, through that reply", () => {
    // Found by the property above: the reply was keyed by its first run alone, so once that run
    // passed, the other failure it told was posted again under its own key.
    const shown = playHistory({
      plans: [
        { id: 10050, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10038, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10011, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10043, statuses: ["failed", "passed"], appearsAt: 2, createdAt: "normal", trigger: "schedule" },
        { id: 10059, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10009, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10031, statuses: ["passed", "failed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
        { id: 10044, statuses: ["failed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10015, statuses: ["passed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 10054, statuses: ["failed"], appearsAt: 2, createdAt: "normal", trigger: "schedule" },
      ],
      options: { after: 1, trigger: null, flaky: "thread" },
      answers: ["lost", "ok"],
      snoozeMinutes: null,
      flakyToday: false,
      outages: [false],
    } as History);
    expectAccounted(shown);
  });

  it("a test called flaky today keeps its failures in its thread during an outage", () => {
    // Every cycle's held runs would be named in an outage message: none of this test's is held.
    const calledFlaky = histories.map((h) => ({
      ...h,
      flakyToday: true,
      options: { ...h.options, flaky: "thread" as const },
      outages: [true],
      snoozeMinutes: null,
    }));
    fc.assert(
      fc.property(calledFlaky, (history) => {
        const shown = playHistory(history);
        expectAccounted(shown);
        expect(shown.held).toEqual([]);
        for (const row of shown.ledger.values()) {
          if (row.status !== "failed") continue;
          expect(row.fate, `run ${row.id}`).not.toBe("grouped");
          expect(row.fate, `run ${row.id}`).not.toBe("announced");
          // Told in the day's thread, or counted for a reason the channel chose (`after:` aside).
          if (row.fate === "threaded") expect(row.parentTs).toBe(FLAKY_THREAD_TS);
          else expect(row).toMatchObject({ fate: expect.stringMatching(/counted|baseline/) });
          if (row.fate === "counted") expect(row.reason).toBe("trigger");
        }
      }),
      { numRuns: 200 },
    );
  });

  it("a failure is announced once even when its run reads as running, then failed, in any order of polls", () => {
    const shown = playHistory({
      plans: [
        {
          id: 1,
          statuses: ["running", "running", "failed"],
          appearsAt: 0,
          createdAt: "normal",
          trigger: "schedule",
        },
        { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
      ],
    });
    expect(shown.ledger.get(1)?.fate).toBe("announced");
    expect(shown.timesTold.get(1)).toBe(1);
    expectAccounted(shown);
  });

  it("a failure whose answer was lost is found by its key, not posted again, and not grouped later", () => {
    const shown = playHistory({
      plans: [
        { id: 1, statuses: ["failed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 2, statuses: ["failed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
      ],
      answers: ["lost", "ok"],
      outages: [false, true],
    });
    expect(shown.ledger.get(1)?.fate).toBe("announced");
    expect(shown.asked.get("run:1")).toBeGreaterThan(1);
    expectAccounted(shown);
  });

  it("a createdAt in 2099 is data, not a cursor: later failures still alert", () => {
    const { ledger } = playHistory({
      plans: [
        { id: 1, statuses: ["failed"], appearsAt: 0, createdAt: "future", trigger: "schedule" },
        { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
        { id: 3, statuses: ["failed"], appearsAt: 3, createdAt: "normal", trigger: "schedule" },
      ],
    });
    expect(ledger.get(1)?.createdAt).toBeNull();
    expect(ledger.get(1)?.fate).toBe("announced");
    expect(ledger.get(3)?.fate).toMatch(/announced|threaded/);
  });

  it("a timed snooze holds through a pass: failures while snoozed are counted, none posted", () => {
    // Snoozed for 60 minutes from T0: every poll of the history is inside it.
    const { ledger, slack } = playHistory({
      plans: [
        { id: 1, statuses: ["failed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
        { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
        { id: 3, statuses: ["failed"], appearsAt: 2, createdAt: "normal", trigger: "schedule" },
      ],
      snoozeMinutes: 60,
    });
    expect(ledger.get(1)?.fate).toBe("counted");
    expect(ledger.get(3)).toMatchObject({ fate: "counted", reason: "snoozed" });
    expect([...slack.keys()].filter((k) => k.startsWith("run:"))).toEqual([]);
  });

  describe("a streak's parent says Recovered once it ends, also when new failures follow", () => {
    const statuses = ["failed", "failed", "passed", "failed", "failed"] as const;
    const plan = (appearsAt: (i: number) => number): RunPlan[] =>
      statuses.map((status, i) => ({
        id: i + 1,
        statuses: [status],
        appearsAt: appearsAt(i),
        createdAt: "normal",
        trigger: "schedule",
      }));
    const parents = ({ slack, texts }: Shown) => {
      const first = texts.get(slack.get("run:1") ?? "") ?? "";
      const second = texts.get(slack.get("run:4") ?? "") ?? "";
      return { first, second };
    };

    it("fail, fail, pass, fail, fail seen in one poll", () => {
      const { first, second } = parents(playHistory({ plans: plan(() => 0), polls: 4 }));
      expect(first).toMatch(/Recovered/);
      expect(first).not.toMatch(/failing for/);
      expect(second).toMatch(/failing for 2 runs/);
    });

    it("fail, fail, pass, fail, fail seen in consecutive polls", () => {
      const { first, second } = parents(playHistory({ plans: plan((i) => i), polls: 8 }));
      expect(first).toMatch(/Recovered/);
      expect(first).not.toMatch(/failing for/);
      expect(second).toMatch(/failing for 2 runs/);
    });

    it("pass and the next failures seen in one poll after the streak's own", () => {
      const { first, second } = parents(playHistory({ plans: plan((i) => (i < 2 ? 0 : 1)), polls: 4 }));
      expect(first).toMatch(/Recovered/);
      expect(first).not.toMatch(/failing for/);
      expect(second).toMatch(/failing for 2 runs/);
    });
  });
});
