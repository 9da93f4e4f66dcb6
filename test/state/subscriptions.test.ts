import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { StateError } from "../../src/state/kv-json.ts";
import type { TestSubscription } from "../../src/state/subscription-types.ts";
import { SubscriptionStore } from "../../src/state/subscriptions.ts";

function testSubscription(channelId: string, testId: number): TestSubscription {
  return {
    kind: "test",
    channelId,
    testId,
    testName: `Test ${testId}`,
    createdAt: "2026-11-21T00:00:00.000Z",
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: "2026-11-21T00:00:00.000Z",
    lastRunId: 10,
    lastRunAt: null,
    handledRunIds: [],
    streak: null,
  };
}

describe("SubscriptionStore", () => {
  it("keeps each channel's subscriptions apart and indexes them once", async () => {
    const store = new SubscriptionStore(env.STATE);
    await store.save(testSubscription("C1", 101));
    await store.save(testSubscription("C1", 101));
    await store.save(testSubscription("C2", 101));
    expect(await store.listKeys()).toEqual(["sub:C1:test:101", "sub:C2:test:101"]);
    expect((await store.listForChannel("C1")).map((s) => s.channelId)).toEqual(["C1"]);
  });

  it("removes a subscription from the index and KV, and says whether it existed", async () => {
    const store = new SubscriptionStore(env.STATE);
    await store.save(testSubscription("C3", 7));
    expect(await store.remove("C3", "test", 7)).toBe(true);
    expect(await store.remove("C3", "test", 7)).toBe(false);
    expect(await store.get("C3", "test", 7)).toBeNull();
    expect(await store.listKeys()).not.toContain("sub:C3:test:7");
  });

  it("refuses to read corrupt state instead of treating it as absent", async () => {
    await env.STATE.put("sub:C4:test:1", "{not json");
    await expect(new SubscriptionStore(env.STATE).get("C4", "test", 1)).rejects.toBeInstanceOf(StateError);
  });
});
