import { describe, expect, it } from "vitest";
import {
  ACTION_IDS,
  collectionAlert,
  collectionGrowthReply,
  failedRunAlert,
  failedRunReply,
  recoveryReply,
} from "../../../src/slack/blocks/index.ts";
import { APP, aCollection, aCollectionSession, aRun, aTest, NOW } from "./fixtures.ts";
import { allText, assertWithinSlackLimits, buttonsOf } from "./slack-limits.ts";

const runLink = `${APP}/tests/7/runs/1234`;

describe("failed-run alert", () => {
  const first = failedRunAlert({ test: aTest, run: aRun(), appUrl: APP, now: NOW, failingStreak: 1 });
  const text = allText(first);

  it("names the test with a link, and the run with a link", () => {
    expect(text).toContain(`<${APP}/tests/7|Checkout works>`);
    expect(text).toContain(`<${runLink}|Run #1234>`);
  });

  it("shows the summary, where it failed, failed steps, duration, trigger and time", () => {
    expect(text).toContain("Pay button did nothing");
    expect(text).toContain("failed at step 3 of 7");
    expect(text).toContain("*Failed steps*\n2 of 7");
    expect(text).toContain("*Duration*\n2 m 05 s");
    expect(text).toContain("*Triggered by*\nschedule");
    expect(text).toContain("|2026-02-16 11:52 UTC>");
  });

  it("has a button that opens the run", () => {
    expect(buttonsOf(first)).toEqual([
      expect.objectContaining({ action_id: ACTION_IDS.runOpen, url: runLink, value: "1234" }),
    ]);
  });

  it("titles a first failure as such, and a streak as 'failing for N runs'", () => {
    expect(first.blocks[0]).toMatchObject({
      type: "header",
      text: { text: ":x: Test failed: Checkout works" },
    });
    const streak = failedRunAlert({ test: aTest, run: aRun(), appUrl: APP, now: NOW, failingStreak: 3 });
    expect(streak.blocks[0]).toMatchObject({ text: { text: ":x: Checkout works is failing for 3 runs" } });
    expect(streak.text).toContain("failing for 3 runs");
  });

  it("still reads well when the vendor did not say which step failed", () => {
    const run = aRun({ summary: null, durationMs: null });
    const m = failedRunAlert({ test: aTest, run, appUrl: APP, now: NOW, failingStreak: 1 });
    expect(allText(m)).toContain("failed (7 steps)");
    expect(allText(m)).toContain("*Duration*\n—");
    assertWithinSlackLimits(m);
  });

  it("thread reply for a further failure links the run and keeps the count", () => {
    const m = failedRunReply({
      test: aTest,
      run: aRun({ id: 1240 }),
      appUrl: APP,
      now: NOW,
      failingStreak: 4,
    });
    expect(allText(m)).toContain(`<${APP}/tests/7/runs/1240|Run #1240> failed at step 3 of 7`);
    expect(m.text).toContain("Checkout works failed again (4 runs in a row)");
  });

  it("recovery reply says how many runs failed before", () => {
    const m = recoveryReply({
      test: aTest,
      run: aRun({ status: "passed", id: 1241 }),
      failedRuns: 3,
      appUrl: APP,
      now: NOW,
    });
    expect(m.text).toBe("Checkout works passed again after 3 failed runs");
    expect(allText(m)).toContain(`<${APP}/tests/7/runs/1241|Run #1241>`);
  });
});

describe("issue-collection alert", () => {
  const input = {
    collection: aCollection(),
    previousCount: 12,
    sessions: [aCollectionSession()],
    screenshotsExpiresAt: "2026-02-16T15:00:00.000Z",
    appUrl: APP,
    now: NOW,
  };
  const m = collectionAlert({ ...input, regression: false });
  const text = allText(m);

  it("shows old → new sessions, errors and estimated users", () => {
    expect(text).toContain("*Sessions*\n12 → 20 (+8)");
    expect(text).toContain("*Errors*\n31");
    expect(text).toContain("*Estimated users*\n14");
  });

  it("names the root cause and path", () => {
    expect(m.blocks[0]).toMatchObject({
      text: { text: ":chart_with_upwards_trend: Issue growing: Stripe iframe fails to load" },
    });
    expect(text).toContain("on `/checkout`");
  });

  it("shows the representative issue's AI summary", () => {
    expect(text).toContain("*Error*: Failed to load Stripe.js");
    expect(text).toContain("*Why*: The iframe request timed out");
  });

  it("shows new sessions with their timeline overview and error screenshots, and when those expire", () => {
    expect(text).toContain(`${APP}/sessions/`);
    expect(text).toContain("stuck on the payment step");
    expect(text).toContain("<https://shots.test/err.png|error screenshot>");
    expect(text).toContain("Screenshot links expire <!date^1771254000^");
  });

  it("shows at most three new sessions", () => {
    const many = collectionAlert({
      ...input,
      sessions: Array.from({ length: 6 }, () => aCollectionSession()),
      regression: false,
    });
    expect(allText(many).match(/stuck on the payment step/g)).toHaveLength(3);
    assertWithinSlackLimits(many);
  });

  it("titles a resolved collection with new sessions as a regression", () => {
    const r = collectionAlert({ ...input, collection: aCollection({ isResolved: true }), regression: true });
    expect(r.blocks[0]).toMatchObject({
      text: { text: ":rotating_light: Regression: Stripe iframe fails to load" },
    });
    expect(r.text.startsWith("Regression")).toBe(true);
  });

  it("growth reply in the thread repeats the counts", () => {
    const g = collectionGrowthReply({
      ...input,
      previousCount: 20,
      collection: aCollection({ sessionCount: 27 }),
    });
    expect(allText(g)).toContain("Grew again: 20 → 27 (+7) sessions");
    assertWithinSlackLimits(g);
  });
});
