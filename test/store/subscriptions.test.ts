import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TestSubscription } from "../../src/model/subscription.ts";
import { keys } from "../../src/store/keys.ts";
import { StateError } from "../../src/store/kv-json.ts";
import { SubscriptionStore } from "../../src/store/subscription-store.ts";

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
    streak: null,
  };
}

describe("SubscriptionStore (the readable copies)", () => {
  it("lists a channel's subscriptions from the registry's index copy, and only that channel's", async () => {
    const store = new SubscriptionStore(env.STATE);
    for (const sub of [testSubscription("C1", 101), testSubscription("C2", 101)]) await store.update(sub);
    await env.STATE.put(keys.subscriptionIndex(), JSON.stringify(["sub:C1:test:101", "sub:C2:test:101"]));
    expect(await store.listKeys()).toEqual(["sub:C1:test:101", "sub:C2:test:101"]);
    expect((await store.listForChannel("C1")).map((s) => s.channelId)).toEqual(["C1"]);
  });

  it("reads no index as an empty list, and a copy missing from KV as absent", async () => {
    const store = new SubscriptionStore(env.STATE);
    expect(await store.listKeys()).toEqual([]);
    await env.STATE.put(keys.subscriptionIndex(), JSON.stringify(["sub:C3:test:7"]));
    expect(await store.listForChannel("C3")).toEqual([]);
    expect(await store.get("C3", "test", 7)).toBeNull();
  });

  it("refuses to read corrupt state instead of treating it as absent", async () => {
    await env.STATE.put("sub:C4:test:1", "{not json");
    await expect(new SubscriptionStore(env.STATE).get("C4", "test", 1)).rejects.toBeInstanceOf(StateError);
  });
});
