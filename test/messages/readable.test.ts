import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { statusMessage, subscribedMessage } from "../../src/kinds/messages.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import { overviewText } from "../../src/messages/overview.ts";
import { timelineMessage } from "../../src/messages/timeline.ts";
import { indexEntry } from "../../src/model/channel-index.ts";
import type { CollectionSubscription } from "../../src/model/subscription.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { APP, aCollection, aTest, aTimeline, NOW, SESSION_ID } from "./fixtures.ts";

/** An AI overview as Decipher writes them: one block of about 2,500 characters. */
const LONG = Array.from(
  { length: 30 },
  (_, i) => `The user opened step ${i + 1} of the checkout and looked at the payment form for a while.`,
).join(" ");

describe("long AI overviews", () => {
  it("are split into paragraphs and capped, with a link to the rest in Decipher", () => {
    expect(LONG.length).toBeGreaterThan(2500);
    const text = overviewText(LONG, 1200, {
      url: `${APP}/sessions/${SESSION_ID}`,
      label: "Read the whole overview",
    });
    const paragraphs = text.split("\n\n");
    expect(paragraphs.length).toBeGreaterThanOrEqual(4);
    for (const p of paragraphs.slice(0, -1)) expect(p.length).toBeLessThan(450);
    expect(text.length).toBeLessThan(1400);
    // Cut at a sentence end, then the link.
    expect(text).toMatch(/\. <https:\/\/app\.getdecipher\.com\/sessions\/[^|]+\|Read the whole overview>$/);
  });

  it("a short one stays as written, without a link", () => {
    expect(overviewText("Opened the cart. Paid.", 1200, { url: APP, label: "more" })).toBe(
      "Opened the cart. Paid.",
    );
  });

  it("the Timeline answer shows the overview in paragraphs, capped, linking the rest", () => {
    const m = timelineMessage({
      sessionId: SESSION_ID,
      timeline: aTimeline({ overview: LONG }),
      appUrl: APP,
    });
    const section = (m.blocks[2] as { text: { text: string } }).text.text;
    expect(section.split("\n\n").length).toBeGreaterThanOrEqual(4);
    expect(section).toContain("|Read the whole overview in Decipher>");
    expect(section.length).toBeLessThan(1500);
    assertWithinSlackLimits(m);
  });
});

describe("wording", () => {
  const collection: CollectionSubscription = {
    kind: "collection",
    channelId: "C0ALERTS",
    createdAt: NOW.toISOString(),
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: NOW.toISOString(),
    collectionId: 501,
    rootCause: "Stripe iframe fails to load",
    growth: null,
    alertedCount: 12,
    alertedAt: NOW.toISOString(),
    wasResolved: false,
    regressed: false,
    threadTs: null,
  };

  it("subscribing to a collection says what growth alerts in plain words, without 'growth:default'", () => {
    const text = visibleText(subscribedMessage(collection, APP, false));
    expect(text).toContain(
      "when its unresolved sessions grow by 5 or by 50 %, whichever is smaller, or when",
    );
    expect(text).not.toMatch(/sessions grows|growth:default/);
    expect(visibleText(subscribedMessage({ ...collection, growth: 3 }, APP, false))).toContain(
      "when its unresolved sessions grow by 3 sessions, or when",
    );
  });

  it("counts subscriptions in words, never 'subscription(s)'", () => {
    const one = statusMessage(
      [indexEntry(collection, NOW)],
      { at: NOW.toISOString(), subscriptions: 1, failed: 0 },
      APP,
      NOW,
    );
    expect(one.text).toBe("Status of 1 subscription.");
    expect(visibleText(one)).not.toContain("(s)");
  });

  it("the digest names a muted test and collection: who muted it and when", () => {
    const muted = { by: "U0BOB", at: "2026-02-16T09:00:00.000Z" };
    const m = digestMessage({
      date: "2026-02-16",
      zone: "UTC",
      collections: [{ collection: aCollection(), muted }],
      tests: [{ test: aTest, runs24h: 4, failures24h: 1, passRate: 0.75, state: "failing", muted }],
      appUrl: APP,
      now: NOW,
    });
    const lines = visibleText(m)
      .split("\n")
      .filter((l) => l.includes(":no_bell: muted by <@U0BOB> <!date^1771232400^"));
    expect(lines).toHaveLength(2);
    expect(visibleText(m)).toContain(`<${APP}/monitoring/issue-collections/55|`);
    // The table's cell is plain text: it says when, in UTC.
    expect(JSON.stringify(m.blocks)).toMatch(/"raw_text","text":"[^"]*· muted 2026-02-16 09:00 UTC"/);
  });

  it("the digest names a snoozed test and collection: who snoozed it and until when", () => {
    const snoozed = {
      by: "U0BOB",
      at: "2026-02-16T09:00:00.000Z",
      until: "2026-02-16T10:00:00.000Z",
      choice: { kind: "for" as const, hours: 1 },
      missedFailures: 0,
      countAtStart: null,
    };
    const m = digestMessage({
      date: "2026-02-16",
      zone: "UTC",
      collections: [{ collection: aCollection(), snoozed }],
      tests: [{ test: aTest, runs24h: 4, failures24h: 1, passRate: 0.75, state: "failing", snoozed }],
      appUrl: APP,
      now: NOW,
    });
    const lines = visibleText(m)
      .split("\n")
      .filter((l) => l.includes(":sleeping: snoozed by <@U0BOB> until <!date^1771236000^"));
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(m.blocks)).toMatch(/"raw_text","text":"[^"]*· snoozed until 2026-02-16 10:00 UTC"/);
  });
});
