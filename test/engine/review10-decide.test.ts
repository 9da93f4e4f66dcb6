import { describe, expect, it } from "vitest";
import { type Change, decideTestStep } from "../../src/engine/decide-test-step.ts";
import { rowsFromRead } from "../../src/engine/poll-test.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import type { TestInfo, TestRun } from "../../src/vendor/types.ts";
import { MINUTE, startingSubscription, T0 } from "../helpers/decide-history.ts";

// Review of the decision function's batched streak reply (src/messages/streak-reply.ts) beside
// `unmutedAt`: each run that one reply tells must be a run that would be posted on its own.

const test: TestInfo = { id: 101, name: "Checkout", url: "https://app.test/tests/101" };

const run = (id: number, status: TestRun["status"], createdAt: number, endedAt = createdAt): TestRun => ({
  object: "testRun",
  id,
  testId: 101,
  status,
  startTime: new Date(createdAt).toISOString(),
  endTime: status === "running" ? null : new Date(endedAt).toISOString(),
  durationMs: status === "running" ? null : endedAt - createdAt,
  triggeredBy: "schedule",
  createdAt: new Date(createdAt).toISOString(),
  summary: null,
  totalSteps: 1,
  failedSteps: status === "failed" ? 1 : 0,
});

/** Reads `runs` into the ledger and carries out every step, Slack answering each post. */
function poll(
  state: { sub: TestSubscription; ledger: Map<number, LedgerRow> },
  runs: TestRun[],
  now: number,
) {
  const posts: { key: string; text: string; blocks: unknown[] }[] = [];
  for (const row of rowsFromRead(state.ledger, runs, [], state.sub, new Date(now)))
    state.ledger.set(row.id, row);
  const apply = (change: Change) => {
    for (const row of change.rows) state.ledger.set(row.id, row);
    state.sub = change.sub;
  };
  for (let guard = 0; guard < 50; guard++) {
    const step = decideTestStep({
      sub: state.sub,
      rows: [...state.ledger.values()],
      runs: new Map(runs.map((r) => [r.id, r])),
      test,
      meaning: null,
      appUrl: "https://app.test",
      now: new Date(now),
      hold: false,
      group: null,
    });
    apply(step.change);
    if (step.kind === "done" || step.kind === "hold") break;
    if (step.kind === "edit") {
      apply(step.after);
      continue;
    }
    posts.push({ key: step.key, text: step.message.text, blocks: step.message.blocks });
    apply(step.delivered(`${1_700_000_000 + posts.length}.000100`));
  }
  return posts;
}

describe("a batched reply after an Unmute", () => {
  it("a failure that ended while muted is counted muted, even when a run that failed after the Unmute is read with it", () => {
    const { options: _o, snooze: _s, ...base } = startingSubscription();
    const state = {
      sub: { ...base, testName: test.name } as TestSubscription,
      ledger: new Map<number, LedgerRow>(),
    };
    // An open alert.
    const first = run(1, "failed", T0);
    expect(poll(state, [first], T0 + MINUTE).map((p) => p.key)).toEqual(["run:1"]);

    // Muted at T0+2, unmuted at T0+10. A long run started at T0+3 fails at T0+12 (after the
    // Unmute); a short one started at T0+4 failed at T0+6 (while muted). Both are read at T0+13.
    state.sub = { ...state.sub, muted: null, unmutedAt: new Date(T0 + 10 * MINUTE).toISOString() };
    const long = run(2, "failed", T0 + 3 * MINUTE, T0 + 12 * MINUTE);
    const short = run(3, "failed", T0 + 4 * MINUTE, T0 + 6 * MINUTE);
    const posts = poll(state, [first, long, short], T0 + 13 * MINUTE);

    expect(state.ledger.get(2)?.fate).toBe("threaded");
    expect(state.ledger.get(3)).toMatchObject({ fate: "counted", reason: "muted" });
    expect(JSON.stringify(posts.map((p) => p.blocks))).not.toContain("/runs/3");
  });
});
