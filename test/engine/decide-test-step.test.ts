import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Change, decideTestStep } from "../../src/engine/decide-test-step.ts";
import { rowsFromRead } from "../../src/engine/poll-test.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestOptions, TestSubscription } from "../../src/model/subscription.ts";
import type { TestInfo, TestRun } from "../../src/vendor/types.ts";

// The decision function against generated histories: runs in any order, with gaps, reruns
// (a status that changes), absurd createdAt values, unreadable rows, options and snoozes, and
// a Slack that answers, refuses, or stores a post and loses the answer. Whatever happens, once
// Slack behaves, every failed run ends with one visible fate, and no message is posted twice.

const T0 = Date.parse("2026-11-20T10:00:00.000Z");
const MINUTE = 60_000;
const test: TestInfo = { id: 101, name: "Checkout & pay <fast>", url: "https://app.test/tests/101" };
const VISIBLE = new Set(["announced", "threaded", "grouped", "counted", "recovered"]);

type RunPlan = {
  id: number;
  /** Status per poll from when it appears: e.g. running, running, failed. */
  statuses: ("passed" | "failed" | "running")[];
  appearsAt: number;
  createdAt: "normal" | "future" | "ancient" | "garbage";
  trigger: "schedule" | "manual";
};

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

const history = fc
  .uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 12 })
  .chain((ids) => fc.tuple(...ids.map((id) => runPlan(10_000 + id))));

const options = fc.record({
  after: fc.integer({ min: 1, max: 3 }),
  trigger: fc.constantFrom<string | null>(null, null, "schedule"),
  flaky: fc.constantFrom<TestOptions["flaky"]>("thread", "digest", "alert"),
});

type SlackAnswer = "ok" | "error" | "lost";

function createdAtOf(plan: RunPlan, poll: number): string {
  if (plan.createdAt === "future") return "2099-01-01T00:00:00.000Z";
  if (plan.createdAt === "ancient") return "1999-01-01T00:00:00.000Z";
  if (plan.createdAt === "garbage") return "not a time";
  return new Date(T0 + (plan.appearsAt + poll * 0.01) * MINUTE).toISOString();
}

function runAt(plan: RunPlan, poll: number): TestRun | null {
  if (poll < plan.appearsAt) return null;
  const status = plan.statuses[Math.min(poll - plan.appearsAt, plan.statuses.length - 1)] ?? "passed";
  return {
    object: "testRun",
    id: plan.id,
    testId: 101,
    status,
    startTime: createdAtOf(plan, 0),
    endTime: status === "running" ? null : createdAtOf(plan, 0),
    durationMs: 1000,
    triggeredBy: plan.trigger,
    createdAt: createdAtOf(plan, 0),
    summary: { oneLineSummary: `Run ${plan.id} & *friends*`, steps: [] } as unknown as TestRun["summary"],
    totalSteps: 3,
    failedSteps: status === "failed" ? 1 : 0,
  };
}

function simulate(plans: RunPlan[], opts: TestOptions, answers: SlackAnswer[], snoozeMinutes: number | null) {
  let sub: TestSubscription = {
    kind: "test",
    channelId: "C1",
    testId: 101,
    testName: test.name,
    createdAt: new Date(T0 - 5 * MINUTE).toISOString(),
    createdBy: "U1",
    paused: null,
    lastError: null,
    lastChangeAt: new Date(T0).toISOString(),
    lastRunId: 0,
    lastRunAt: null,
    streak: null,
    options: opts,
    snooze:
      snoozeMinutes === null
        ? null
        : {
            by: "U1",
            at: new Date(T0).toISOString(),
            until: new Date(T0 + snoozeMinutes * MINUTE).toISOString(),
            choice: { kind: "for", hours: 1 },
            missedFailures: 0,
            countAtStart: null,
          },
  };
  const ledger = new Map<number, LedgerRow>();
  /** What Slack holds, by idempotency key: posted at most once each, or the test fails. */
  const slack = new Map<string, { ts: string; posts: number }>();
  /** Keys whose answer was lost: the executor knows only that the outcome is unknown. */
  const unknown = new Set<string>();
  let answer = 0;
  let tsCounter = 0;

  const apply = (change: Change) => {
    for (const row of change.rows) ledger.set(row.id, row);
    sub = change.sub;
  };

  const polls = 12;
  for (let poll = 0; poll < polls; poll++) {
    const now = new Date(T0 + poll * 3 * MINUTE);
    const calm = poll >= polls - 3;
    const runs = plans.map((p) => runAt(p, poll)).filter((r): r is TestRun => r !== null);
    // Any order: the vendor's list order is not the engine's business.
    const read = poll % 2 === 0 ? runs : [...runs].reverse();
    const fresh = rowsFromRead(ledger, read, [], sub, now);
    for (const row of fresh) ledger.set(row.id, row);
    const byId = new Map(read.map((r) => [r.id, r]));
    for (let guard = 0; guard < 200; guard++) {
      const step = decideTestStep({
        sub,
        rows: [...ledger.values()],
        runs: byId,
        test,
        meaning: null,
        appUrl: "https://app.test",
        now,
        hold: false,
        group: null,
        cycle: now.toISOString(),
      });
      apply(step.change);
      if (step.kind === "done" || step.kind === "hold") break;
      if (step.kind === "edit") {
        apply(step.after);
        continue;
      }
      const held = slack.get(step.key);
      if (held) {
        // The outbox: a key Slack has is answered with its ts, never sent again.
        unknown.delete(step.key);
        apply(step.delivered(held.ts));
        continue;
      }
      const a: SlackAnswer = calm ? "ok" : (answers[answer++ % answers.length] ?? "ok");
      if (a === "error") break;
      const ts = `${1_700_000_000 + tsCounter++}.000100`;
      slack.set(step.key, { ts, posts: 1 });
      if (a === "lost") {
        unknown.add(step.key);
        break;
      }
      apply(step.delivered(ts));
    }
  }
  return { ledger, slack, sub };
}

describe("decideTestStep over generated histories", () => {
  it("every failed run ends with one visible fate, and nothing is posted twice", () => {
    fc.assert(
      fc.property(
        history,
        options,
        fc.array(fc.constantFrom<SlackAnswer>("ok", "ok", "ok", "error", "lost"), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: null }),
        (plans, opts, answers, snooze) => {
          const { ledger, slack } = simulate(plans, opts, answers, snooze);
          for (const { posts } of slack.values()) expect(posts).toBe(1);
          for (const row of ledger.values()) {
            if (row.status !== "failed") continue;
            expect(row.fate === null ? null : VISIBLE.has(row.fate) || row.fate === "baseline").toBe(true);
            // A fate that names a message names one Slack has.
            if (row.fate === "announced" || row.fate === "threaded") {
              expect([...slack.values()].some((m) => m.ts === row.ts)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a failure is announced once even when its run reads as running, then failed, in any order of polls", () => {
    const plans: RunPlan[] = [
      {
        id: 1,
        statuses: ["running", "running", "failed"],
        appearsAt: 0,
        createdAt: "normal",
        trigger: "schedule",
      },
      { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
    ];
    const { ledger, slack } = simulate(plans, {}, ["ok"], null);
    expect(ledger.get(1)?.fate).toBe("announced");
    expect([...slack.keys()].filter((k) => k === "run:1")).toHaveLength(1);
  });

  it("a createdAt in 2099 is data, not a cursor: later failures still alert", () => {
    const plans: RunPlan[] = [
      { id: 1, statuses: ["failed"], appearsAt: 0, createdAt: "future", trigger: "schedule" },
      { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
      { id: 3, statuses: ["failed"], appearsAt: 3, createdAt: "normal", trigger: "schedule" },
    ];
    const { ledger } = simulate(plans, {}, ["ok"], null);
    expect(ledger.get(1)?.createdAt).toBeNull();
    expect(ledger.get(1)?.fate).toBe("announced");
    expect(ledger.get(3)?.fate).toMatch(/announced|threaded/);
  });

  it("a timed snooze holds through a pass: failures while snoozed are counted, none posted", () => {
    const plans: RunPlan[] = [
      { id: 1, statuses: ["failed"], appearsAt: 0, createdAt: "normal", trigger: "schedule" },
      { id: 2, statuses: ["passed"], appearsAt: 1, createdAt: "normal", trigger: "schedule" },
      { id: 3, statuses: ["failed"], appearsAt: 2, createdAt: "normal", trigger: "schedule" },
    ];
    // Snoozed for 60 minutes from T0: every poll of the simulation is inside it.
    const { ledger, slack } = simulate(plans, {}, ["ok"], 60);
    expect(ledger.get(1)?.fate).toBe("counted");
    expect(ledger.get(3)).toMatchObject({ fate: "counted", reason: "snoozed" });
    expect([...slack.keys()].filter((k) => k.startsWith("run:"))).toEqual([]);
  });
});
