import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { emulator, newOrg } from "../../dev/in-workerd/bot.ts";
import { type Env, readConfig } from "../../src/config.ts";
import {
  collectionsOnPage,
  impactVendorClient,
  pathsOverlap,
  productionImpact,
} from "../../src/engine/read-production-impact.ts";
import type { ImpactResult, ProductionImpact } from "../../src/model/production-impact.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { SubrequestBudget } from "../../src/util/subrequest-budget.ts";

const CHECKOUT = "/checkout";

/** An org whose /checkout has a day of traffic (the emulator's noisy scenario), counts zeroed. */
async function orgWithTraffic() {
  const org = emulator.org(await newOrg());
  await org.scenario("noisy");
  await org.clearRequests();
  return org;
}

async function lookup(
  apiKey: string,
  {
    budget = 45,
    keep,
    collections = [],
  }: { budget?: number; keep?: number; collections?: CollectionSubscription[] } = {},
) {
  const spend = new SubrequestBudget(budget);
  const vendor = impactVendorClient(readConfig({ ...env, DECIPHER_API_KEY: apiKey } as Env), spend);
  const result = await productionImpact(vendor, {
    page: CHECKOUT,
    collections,
    now: new Date(),
    budget: spend,
    ...(keep === undefined ? {} : { keep }),
  });
  return { result, spent: spend.used };
}

function available(result: ImpactResult): ProductionImpact {
  if (result.unavailable) throw new Error(`unavailable: ${result.reason}`);
  return result;
}

function collectionSub(overrides: Partial<CollectionSubscription>): CollectionSubscription {
  return {
    kind: "collection",
    channelId: "C0ALERTS",
    createdAt: "2026-02-16T00:00:00.000Z",
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: "2026-02-16T00:00:00.000Z",
    collectionId: 501,
    rootCause: "TypeError in PaymentForm.submit",
    growth: null,
    alertedCount: 4,
    alertedAt: "2026-02-16T00:00:00.000Z",
    wasResolved: false,
    regressed: false,
    threadTs: null,
    path: "/checkout/payment",
    ...overrides,
  };
}

describe("productionImpact against the emulator", () => {
  it("counts the page's sessions of the last 24 h and shows one with its overview, in two requests", async () => {
    const org = await orgWithTraffic();
    const { result, spent } = await lookup(org.apiKey);
    const impact = available(result);
    expect(impact.sessions).toBeGreaterThanOrEqual(12);
    expect(impact.more).toBe(false);
    expect(impact.example).toMatchObject({ hasTimeline: true, overview: expect.stringMatching(/\S/) });
    expect(await org.requests()).toMatchObject({ total: 2, byRoute: { sessions: 1, timeline: 1 } });
    expect(spent).toBe(2);
  });

  it("says 100+ when the page had more sessions than one page holds, still in two requests", async () => {
    const org = emulator.org(await newOrg());
    await org.grow(501, 120); // sessions on /checkout/payment, now
    const { result } = await lookup(org.apiKey);
    expect(available(result)).toMatchObject({ sessions: 100, more: true });
    expect((await org.requests()).total).toBe(2);
  });

  it("is unavailable, not thrown, when Decipher fails, after a single request", async () => {
    const org = await orgWithTraffic();
    await org.fault("sessions", "500", 3);
    const { result } = await lookup(org.apiKey);
    expect(result).toEqual({ unavailable: true, page: CHECKOUT, reason: "Decipher answered 500" });
    expect((await org.requests()).total).toBe(1);
  });

  it("is unavailable when Decipher answers with something unreadable", async () => {
    const org = await orgWithTraffic();
    await org.fault("sessions", "malformed");
    const { result } = await lookup(org.apiKey);
    expect(result).toMatchObject({ unavailable: true, reason: "Decipher sent data the bot could not read" });
  });

  it("keeps the count and the example when only the timeline fails", async () => {
    const org = await orgWithTraffic();
    await org.fault("timeline", "500", 3);
    const impact = available((await lookup(org.apiKey)).result);
    expect(impact.sessions).toBeGreaterThanOrEqual(12);
    expect(impact.example).toMatchObject({ hasTimeline: true, overview: null });
    expect((await org.requests()).total).toBe(2);
  });

  it("skips the timeline when the budget holds one request, or one beyond what must be kept", async () => {
    const org = await orgWithTraffic();
    for (const budget of [{ budget: 1 }, { budget: 3, keep: 2 }]) {
      const { result, spent } = await lookup(org.apiKey, budget);
      expect(available(result).example?.overview).toBeNull();
      expect(spent).toBe(1);
    }
    expect(await org.requests()).toMatchObject({ total: 2, byRoute: { sessions: 2, timeline: 0 } });
  });

  it("asks nothing and says so when no request is left", async () => {
    const org = await orgWithTraffic();
    for (const budget of [{ budget: 0 }, { budget: 2, keep: 2 }]) {
      expect((await lookup(org.apiKey, budget)).result).toEqual({
        unavailable: true,
        page: CHECKOUT,
        reason: "no vendor requests left in this cycle",
      });
    }
    expect((await org.requests()).total).toBe(0);
  });

  it("names the channel's open collections on the page from what they store, at no cost", async () => {
    const org = await orgWithTraffic();
    const collections = [
      collectionSub({}),
      collectionSub({ collectionId: 502, path: "/cart", alertedCount: 50 }),
      collectionSub({ collectionId: 503, path: "/checkout", wasResolved: true, alertedCount: 9 }),
      collectionSub({
        collectionId: 504,
        path: "/checkout",
        wasResolved: true,
        regressed: true,
        alertedCount: 7,
      }),
      collectionSub({ collectionId: 505, path: undefined }),
    ];
    const impact = available((await lookup(org.apiKey, { collections })).result);
    expect(impact.collections.map((c) => [c.id, c.sessions])).toEqual([
      [504, 7],
      [501, 4],
    ]);
    expect((await org.requests()).total).toBe(2);
  });
});

describe("which collections are on the page", () => {
  it.each([
    ["/checkout", "/checkout", true],
    ["/checkout", "/checkout/payment", true],
    ["/checkout/payment", "/checkout", true],
    ["/checkout/", "/checkout?step=2", true],
    ["/checkout", "/checkouts", false],
    ["/checkout", "/cart", false],
    ["/", "/checkout", false],
    ["/", "/", true],
    ["", "/checkout", false],
  ])("%j and %j overlap: %s", (a, b, expected) => {
    expect(pathsOverlap(a, b)).toBe(expected);
  });

  it("takes fresher counts when the caller has them, busiest first, at most five", () => {
    const subs = Array.from({ length: 7 }, (_, i) =>
      collectionSub({ collectionId: 600 + i, alertedCount: i }),
    );
    const counts = new Map([[600, { sessionCount: 40, addedToday: 5 }]]);
    const on = collectionsOnPage(CHECKOUT, subs, counts);
    expect(on).toHaveLength(5);
    expect(on[0]).toEqual({
      id: 600,
      rootCause: "TypeError in PaymentForm.submit",
      path: "/checkout/payment",
      sessions: 40,
      addedToday: 5,
    });
    expect(on.slice(1).map((c) => c.addedToday)).toEqual([null, null, null, null]);
  });
});
