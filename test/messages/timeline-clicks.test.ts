import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { clicksMessage } from "../../src/messages/clicks.ts";
import { screenshotsMessage } from "../../src/messages/screenshots.ts";
import { timelineMessage } from "../../src/messages/timeline.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { APP, aTimeline, NOW, SESSION_ID, someClicks } from "./fixtures.ts";

describe("timeline message", () => {
  it("lists pages with position, clicks, features and activities", () => {
    const t = visibleText(timelineMessage({ sessionId: SESSION_ID, timeline: aTimeline(), appUrl: APP }));
    expect(t).toContain("*2.* `/checkout` · at 1:23 · 9 clicks");
    expect(t).toContain("Features: payment");
    expect(t).toContain("• Clicked Pay repeatedly — _click_");
  });

  it("shows loading issues and tags", () => {
    const t = visibleText(timelineMessage({ sessionId: SESSION_ID, timeline: aTimeline(), appUrl: APP }));
    expect(t).toContain(":hourglass: Payment form slow (4.2 s), at 1:30");
    expect(t).toContain("`checkout` `rage-click`");
  });

  it("reads epoch-millisecond page times relative to the session start", () => {
    const timeline = aTimeline();
    const page = timeline.pages[1];
    if (page) page.startTime = Date.parse("2026-02-16T09:01:23Z");
    const t = visibleText(
      timelineMessage({ sessionId: SESSION_ID, timeline, appUrl: APP, sessionStart: "2026-02-16T09:00:00Z" }),
    );
    expect(t).toContain("`/checkout` · at 1:23");
  });

  it("bounds a long timeline and points to the full one", () => {
    const base = aTimeline();
    const page = base.pages[0];
    if (!page) throw new Error("fixture");
    const timeline = { ...base, pages: Array.from({ length: 70 }, () => page) };
    const m = timelineMessage({ sessionId: SESSION_ID, timeline, appUrl: APP });
    assertWithinSlackLimits(m);
    const t = visibleText(m);
    expect(t).toContain("30 more pages not shown");
    expect(t).toContain(`<${APP}/sessions/${SESSION_ID}|Open the full timeline in Decipher>`);
  });
});

describe("clicks message", () => {
  it("lists clicks with before/after screenshot links", () => {
    const t = visibleText(
      clicksMessage({ sessionId: SESSION_ID, clicks: someClicks(), appUrl: APP, now: NOW }),
    );
    expect(t).toContain("• at 1:23: Click on button “Pay now” ×5");
    expect(t).toContain("<https://shots.test/1-before.png|before> / <https://shots.test/1-after.png|after>");
    // Where the click led, in words: not to be read as the page it was made on.
    expect(t).toContain("led to `/help`");
  });

  it("says when the screenshot links expire", () => {
    const t = visibleText(
      clicksMessage({ sessionId: SESSION_ID, clicks: someClicks(), appUrl: APP, now: NOW }),
    );
    expect(t).toContain(
      "Screenshot links valid until <!date^1771254000^{date_short_pretty} at {time}|2026-02-16 15:00 UTC>",
    );
  });

  it("says when they already expired, and when there are none", () => {
    const later = new Date("2026-02-16T16:00:00Z");
    expect(
      visibleText(clicksMessage({ sessionId: SESSION_ID, clicks: someClicks(), appUrl: APP, now: later })),
    ).toContain("Screenshot links expired");
    const none = someClicks({ screenshotsExpiresAt: null });
    expect(
      visibleText(clicksMessage({ sessionId: SESSION_ID, clicks: none, appUrl: APP, now: NOW })),
    ).toContain("No screenshots");
  });

  it("names the event and the clicked element in words, never as raw event or tag names", () => {
    const base = someClicks().data[0];
    if (!base) throw new Error("fixture");
    const data = [
      { ...base, id: 1, type: "rage_click", clickTag: "A", clickText: "Pay" },
      { ...base, id: 2, type: "dead_click", clickTag: "DIV", clickText: "Total" },
      { ...base, id: 3, type: "click", clickTag: "BUTTON", clickText: "Next", clickCount: 1 },
    ];
    const t = visibleText(
      clicksMessage({ sessionId: SESSION_ID, clicks: someClicks({ data }), appUrl: APP, now: NOW }),
    );
    expect(t).toContain("Rage click on link “Pay”");
    expect(t).toContain("Dead click on element “Total”");
    expect(t).toContain("Click on button “Next”");
    expect(t).not.toMatch(/rage_click|dead_click|`A`|`DIV`|`BUTTON`/);
  });

  it("says its times are into the session, not of the day", () => {
    const t = visibleText(
      clicksMessage({ sessionId: SESSION_ID, clicks: someClicks(), appUrl: APP, now: NOW }),
    );
    expect(t).toContain("A time like 1:23 is into the session, not of the day.");
  });

  it("the Screenshots answer names each click as Clicks does, at its time into the session", () => {
    const base = someClicks().data[0];
    if (!base) throw new Error("fixture");
    const data = [{ ...base, id: 2, type: "dead_click", timestamp: 83 }];
    const m = screenshotsMessage({
      sessionId: SESSION_ID,
      session: null,
      clicks: someClicks({ data }),
      appUrl: APP,
      now: NOW,
    });
    const titles = JSON.stringify(m.blocks);
    expect(titles).toContain("Before dead click, 1:23 into the session");
    expect(titles).not.toContain("dead_click");
    // The error screenshot is this session's, which an alert may or may not have shown.
    const withError = screenshotsMessage({
      sessionId: SESSION_ID,
      session: null,
      clicks: someClicks({ data }),
      error: { main: "https://img.decipher.test/e.png", after: null, expiresAt: null },
      appUrl: APP,
      now: NOW,
    });
    expect(visibleText(withError)).toContain("Error screenshot* of this session, from the issue collection");
    expect(visibleText(withError)).not.toContain("as in the alert");
  });

  it("says so when nothing was clicked", () => {
    const m = clicksMessage({
      sessionId: SESSION_ID,
      clicks: someClicks({ data: [] }),
      appUrl: APP,
      now: NOW,
    });
    expect(visibleText(m)).toContain("No clicks recorded");
    expect(m.text).toBe(`0 clicks in session ${SESSION_ID}`);
  });

  it("counts the clicks it could not show", () => {
    const click = someClicks().data[0];
    if (!click) throw new Error("fixture");
    const data = Array.from({ length: 2000 }, (_, i) => ({ ...click, id: i }));
    const m = clicksMessage({ sessionId: SESSION_ID, clicks: someClicks({ data }), appUrl: APP, now: NOW });
    assertWithinSlackLimits(m);
    expect(visibleText(m)).toMatch(/…and [\d,]+ more clicks/);
  });
});
