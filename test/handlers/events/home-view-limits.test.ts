import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateBlocks } from "../../../dev/slack/block-limits.ts";
import { homeView } from "../../../src/kinds/messages.ts";
import { HOME_MAX_BLOCKS } from "../../../src/messages/home-view.ts";
import type { Subscription } from "../../../src/model/subscription.ts";
import { anySubscription } from "../../messages/arbitraries.ts";

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
