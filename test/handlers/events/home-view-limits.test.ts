import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateBlocks } from "../../../dev/slack/block-limits.ts";
import { HOME_MAX_BLOCKS, homeView } from "../../../src/messages/home-view.ts";
import type { Subscription } from "../../../src/model/subscription.ts";
import { nasty } from "../../messages/arbitraries.ts";

const channelId = fc.stringMatching(/^C[A-Z0-9]{2,10}$/);
const iso = fc
  .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
  .map((d) => d.toISOString());
const ts = fc
  .tuple(fc.integer({ min: 1e9, max: 2e9 }), fc.integer({ min: 0, max: 999999 }))
  .map(([a, b]) => `${a}.${String(b).padStart(6, "0")}`);

const base = {
  channelId,
  createdAt: iso,
  createdBy: fc.constant("U0ALICE"),
  paused: fc.option(fc.record({ reason: nasty, at: iso }), { nil: null }),
  lastError: fc.option(fc.record({ message: nasty, at: iso }), { nil: null }),
  lastChangeAt: iso,
  acknowledgedBy: fc.option(fc.record({ userId: fc.constantFrom("U0BOB", "bad id"), at: iso }), {
    nil: undefined,
  }),
};

const anySubscription: fc.Arbitrary<Subscription> = fc.oneof(
  fc.record({
    ...base,
    kind: fc.constant("test" as const),
    testId: fc.integer({ min: 1, max: 1e9 }),
    testName: nasty,
    lastRunId: fc.nat(),
    lastRunAt: fc.constant(null),
    handledRunIds: fc.constant([]),
    streak: fc.option(
      fc.record({ threadTs: ts, failedRuns: fc.nat(), firstRunId: fc.nat(), lastRunId: fc.nat() }),
      { nil: null },
    ),
  }),
  fc.record({
    ...base,
    kind: fc.constant("collection" as const),
    collectionId: fc.integer({ min: 1, max: 1e9 }),
    rootCause: nasty,
    growth: fc.constant(null),
    alertedCount: fc.nat(),
    alertedAt: iso,
    wasResolved: fc.boolean(),
    regressed: fc.boolean(),
    threadTs: fc.option(ts, { nil: null }),
  }),
) as fc.Arbitrary<Subscription>;

describe("homeView against Block Kit limits", () => {
  it("never exceeds 100 blocks or any text limit, whatever the subscriptions", () => {
    fc.assert(
      fc.property(fc.array(anySubscription, { maxLength: 400 }), (subscriptions) => {
        const view = homeView({
          subscriptions,
          appUrl: "https://app.decipher.test",
          teamUrl: "https://acme.slack.com/",
        });
        expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
        expect(validateBlocks(view.blocks, HOME_MAX_BLOCKS, "/view/blocks")).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  it("says how many channels it could not show", () => {
    const subscriptions: Subscription[] = Array.from({ length: 150 }, (_, i) => ({
      kind: "test",
      channelId: `C${String(i).padStart(4, "0")}`,
      createdAt: "2026-01-01T00:00:00Z",
      createdBy: "U0ALICE",
      paused: null,
      lastError: null,
      lastChangeAt: "2026-01-01T00:00:00Z",
      testId: 101,
      testName: "Checkout flow",
      lastRunId: 1,
      lastRunAt: null,
      handledRunIds: [],
      streak: null,
    }));
    const view = homeView({ subscriptions, appUrl: "https://app.decipher.test", teamUrl: null });
    expect(view.blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
    expect(JSON.stringify(view.blocks)).toMatch(/and \d+ more channels not shown/);
  });
});
