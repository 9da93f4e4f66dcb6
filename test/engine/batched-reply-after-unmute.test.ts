import { describe, expect, it } from "vitest";
import type { TestInfo } from "../../src/decipher/types.ts";
import type { LedgerRow } from "../../src/model/run-ledger.ts";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { MINUTE, pollSteps, runOfTest, startingSubscription, T0 } from "../helpers/decide-history.ts";

// Review of the decision function's batched streak reply (src/messages/streak-reply.ts) beside
// `unmutedAt`: each run that one reply tells must be a run that would be posted on its own.

const test: TestInfo = { id: 101, name: "Checkout", url: "https://app.test/tests/101" };

describe("a batched reply after an Unmute", () => {
  it("a failure that ended while muted is counted muted, even when a run that failed after the Unmute is read with it", () => {
    const { options: _o, snooze: _s, ...base } = startingSubscription();
    const state = {
      sub: { ...base, testName: test.name } as TestSubscription,
      ledger: new Map<number, LedgerRow>(),
    };
    // An open alert.
    const first = runOfTest(1, "failed", T0);
    expect(pollSteps(state, [first], T0 + MINUTE, test).map((p) => p.key)).toEqual(["run:1"]);

    // Muted at T0+2, unmuted at T0+10. A long run started at T0+3 fails at T0+12 (after the
    // Unmute); a short one started at T0+4 failed at T0+6 (while muted). Both are read at T0+13.
    state.sub = { ...state.sub, muted: null, unmutedAt: new Date(T0 + 10 * MINUTE).toISOString() };
    const long = runOfTest(2, "failed", T0 + 3 * MINUTE, T0 + 12 * MINUTE);
    const short = runOfTest(3, "failed", T0 + 4 * MINUTE, T0 + 6 * MINUTE);
    const posts = pollSteps(state, [first, long, short], T0 + 13 * MINUTE, test);

    expect(state.ledger.get(2)?.fate).toBe("threaded");
    expect(state.ledger.get(3)).toMatchObject({ fate: "counted", reason: "muted" });
    expect(JSON.stringify(posts.map((p) => p.blocks))).not.toContain("/runs/3");
  });
});
