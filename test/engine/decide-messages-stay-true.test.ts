import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TestInfo } from "../../src/decipher/types.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import {
  MINUTE,
  playHistory,
  pollSteps,
  runOfTest,
  type SlackAnswer,
  startingSubscription,
  T0,
} from "../helpers/decide-history.ts";

// Review of the pure decision function: the message a step posts is true when posted, and a
// run's fate follows its latest status.

const test: TestInfo = { id: 101, name: "Checkout", url: "https://app.test/tests/101" };

/** A subscription made an hour before T0, with no options or snooze unless `extra` says so. */
const baseSub = (extra: Partial<TestSubscription> = {}): TestSubscription => {
  const { options: _options, snooze: _snooze, ...sub } = startingSubscription();
  return { ...sub, testName: test.name, createdAt: new Date(T0 - 60 * MINUTE).toISOString(), ...extra };
};

describe("decideTestStep: messages stay true", () => {
  it("a timed snooze that hid a failure with no open streak does not end saying the last run passed", () => {
    const state = {
      sub: baseSub({
        snooze: {
          by: "U1",
          at: new Date(T0).toISOString(),
          until: new Date(T0 + 60 * MINUTE).toISOString(),
          choice: { kind: "for", hours: 1 },
          missedFailures: 0,
          countAtStart: null,
        },
      }),
      ledger: new Map<number, LedgerRow>(),
    };
    const failed = runOfTest(1, "failed", T0 + 10 * MINUTE);
    expect(pollSteps(state, [failed], T0 + 11 * MINUTE, test)).toEqual([]);
    expect(state.ledger.get(1)).toMatchObject({ fate: "counted", reason: "snoozed" });
    // The snooze runs out; the last run the test had failed.
    const posts = pollSteps(state, [failed], T0 + 61 * MINUTE, test);
    expect(posts.map((p) => p.key)).toEqual([`snooze-end:${new Date(T0).toISOString()}`]);
    expect(posts[0]?.text).not.toMatch(/last run passed/);
  });
});

describe("decideTestStep with the outage check and lost answers", () => {
  it("a run whose alert Slack may hold is never also grouped into an outage message", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<"failed" | "passed">("failed", "failed", "passed"), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.constantFrom<SlackAnswer>("ok", "lost"), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        (statuses, answers, outages) => {
          const { ledger, slack } = playHistory({
            // One run a minute, each appearing with its final status.
            plans: statuses.map((status, i) => ({
              id: i + 1,
              statuses: [status],
              appearsAt: i,
              createdAt: "normal",
              trigger: "schedule",
            })),
            answers,
            outages,
            polls: statuses.length + 3,
            minutesPerPoll: 1,
          });
          for (const row of ledger.values()) {
            if (row.fate === "grouped") expect(slack.has(`run:${row.id}`)).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
