import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import * as ACTION_IDS from "../../src/messages/action-ids.ts";
import {
  decodeSessionButtonValue,
  decodeShareValue,
  toSharedSessionCard,
} from "../../src/messages/button-values.ts";
import { noSessionsMessage, sessionsMessage } from "../../src/messages/sessions-reply.ts";
import { sharedSessionMessage } from "../../src/messages/shared-session.ts";
import { assertWithinSlackLimits, buttonsOf } from "../helpers/block-kit.ts";
import { APP, aSession, aTimelineBody, NOW, SESSION_ID } from "./fixtures.ts";

const subject = "jane@acme.com, last 7 days";

describe("/sessions reply", () => {
  const message = sessionsMessage({
    sessions: [aSession()],
    timelines: { [SESSION_ID]: aTimelineBody() },
    subject,
    appUrl: APP,
    now: NOW,
    more: "more-value",
  });
  const text = visibleText(message);

  it("links the card to the session in the Decipher app", () => {
    expect(text).toContain(`<${APP}/sessions/${SESSION_ID}|jane@acme.com>`);
  });

  it("says when as a date token with a fallback, never as a relative time that goes stale", () => {
    expect(text).not.toMatch(/\bago\b|just now/);
    expect(text).toContain("<!date^1771232400^{date_short_pretty} at {time}|2026-02-16 09:00 UTC>");
  });

  it("shows duration, browser, device and country flag", () => {
    expect(text).toContain("12 m 03 s · Chrome · Desktop · 🇩🇪 DE");
  });

  it("leaves the duration out of a card whose session recorded none, rather than saying unknown", () => {
    const card = visibleText(
      sessionsMessage({
        sessions: [aSession({ duration: null } as never)],
        timelines: {},
        subject,
        appUrl: APP,
        now: NOW,
        more: null,
      }),
    );
    expect(card).not.toMatch(/unknown|:stopwatch:/);
    expect(card).toContain("Chrome · Desktop");
  });

  it("shows the AI overview and its tags", () => {
    expect(text).toContain("stuck on the payment step");
    expect(text).toContain("`checkout` `rage-click`");
  });

  it("offers Watch replay, Timeline, Clicks and Share on the card, then More", () => {
    const buttons = buttonsOf(message);
    expect(buttons.map((b) => b.action_id)).toEqual([
      ACTION_IDS.sessionReplay,
      ACTION_IDS.sessionTimeline,
      ACTION_IDS.sessionClicks,
      ACTION_IDS.sessionShare,
      ACTION_IDS.sessionsMore,
    ]);
    expect(buttons[0]).toMatchObject({
      text: { text: "▶ Watch replay" },
      url: `${APP}/sessions/${SESSION_ID}`,
    });
    // Timeline and Clicks carry the card, so their answers can name whose session it is.
    expect(decodeSessionButtonValue(buttons[1]?.value)?.card?.userEmail).toBe("jane@acme.com");
    expect(decodeShareValue(buttons[3]?.value)?.id).toBe(SESSION_ID);
    expect(buttons[4]?.value).toBe("more-value");
  });

  it("on a later page says which page it is and offers the way back to the first", () => {
    const m = sessionsMessage({
      sessions: [aSession()],
      timelines: {},
      subject,
      appUrl: APP,
      now: NOW,
      page: 2,
      first: "first-value",
      more: "more-value",
    });
    expect(visibleText(m)).toContain("page 2");
    expect(
      buttonsOf(m)
        .slice(-2)
        .map((b) => [b.action_id, b.value]),
    ).toEqual([
      [ACTION_IDS.sessionsFirst, "first-value"],
      [ACTION_IDS.sessionsMore, "more-value"],
    ]);
    expect(visibleText(message)).not.toMatch(/page \d/i);
  });

  it("has a fallback that counts the sessions", () => {
    expect(message.text).toBe("1 session for jane@acme.com, last 7 days");
    assertWithinSlackLimits(message);
  });

  it("offers no Timeline button, and says so, when the session has no timeline", () => {
    const m = sessionsMessage({
      sessions: [aSession({ hasTimeline: false })],
      timelines: {},
      subject,
      appUrl: APP,
      now: NOW,
    });
    expect(buttonsOf(m).map((b) => b.action_id)).toEqual([
      ACTION_IDS.sessionReplay,
      ACTION_IDS.sessionClicks,
      ACTION_IDS.sessionShare,
    ]);
    expect(visibleText(m)).toContain("No AI timeline for this session");
  });

  it("says a timeline could not be loaded rather than leaving a gap", () => {
    const m = sessionsMessage({
      sessions: [aSession()],
      timelines: { [SESSION_ID]: null },
      subject,
      appUrl: APP,
      now: NOW,
    });
    expect(visibleText(m)).toContain("AI timeline not available when this card was made");
  });

  it("escapes vendor text on the card", () => {
    const m = sessionsMessage({
      sessions: [aSession({ browser: "<!channel>", userEmail: "a&b@x.test" })],
      timelines: { [SESSION_ID]: aTimelineBody({ overview: "<https://evil.test|win a prize>" }) },
      subject,
      appUrl: APP,
      now: NOW,
    });
    const t = visibleText(m);
    expect(t).toContain("&lt;!channel&gt;");
    expect(t).toContain("&lt;https://evil.test|win a prize&gt;");
    expect(t).not.toContain("<!channel>");
    assertWithinSlackLimits(m);
  });

  it("truncates a long overview to keep the card compact", () => {
    const m = sessionsMessage({
      sessions: [aSession()],
      timelines: { [SESSION_ID]: aTimelineBody({ overview: "word ".repeat(2000) }) },
      subject,
      appUrl: APP,
      now: NOW,
    });
    expect(visibleText(m)).toContain("…");
    expect(visibleText(m).length).toBeLessThan(2000);
  });

  it("shows at most 20 cards and says how many it left out", () => {
    const sessions = Array.from({ length: 30 }, (_, i) =>
      aSession({ id: `3f2b8c1e-5d4a-4c7b-9e2f-${String(i).padStart(12, "0")}` }),
    );
    const m = sessionsMessage({ sessions, timelines: {}, subject, appUrl: APP, now: NOW, more: "m" });
    expect(buttonsOf(m).filter((b) => b.action_id === ACTION_IDS.sessionClicks)).toHaveLength(20);
    expect(visibleText(m)).toContain("10 more not shown");
    expect(buttonsOf(m).at(-1)?.action_id).toBe(ACTION_IDS.sessionsMore);
    assertWithinSlackLimits(m);
  });

  it("with no range, says the search read every session kept rather than offering a longer range", () => {
    const all = visibleText(noSessionsMessage("jane@acme.com", "command", false));
    expect(all).toContain("That searched with no date range");
    expect(all).not.toContain("longer range");
    expect(visibleText(noSessionsMessage(subject))).toContain("Try a longer range");
  });

  it("says plainly when there are no sessions", () => {
    const m = noSessionsMessage(subject);
    expect(m.text).toBe("No sessions for jane@acme.com, last 7 days.");
    expect(sessionsMessage({ sessions: [], timelines: {}, subject, appUrl: APP, now: NOW }).text).toBe(
      m.text,
    );
  });
});

describe("a shared session card", () => {
  const m = sharedSessionMessage({
    session: toSharedSessionCard(aSession()),
    timeline: aTimelineBody(),
    sharedBy: "U012AB3CD",
    appUrl: APP,
    now: NOW,
  });

  it("says who shared it", () => {
    expect(visibleText(m)).toContain("Shared by <@U012AB3CD>");
    expect(m.text).toContain("<@U012AB3CD> shared a Decipher session of jane@acme.com");
  });

  it("shows the same card, without a Share button of its own", () => {
    expect(visibleText(m)).toContain(`<${APP}/sessions/${SESSION_ID}|jane@acme.com>`);
    expect(buttonsOf(m).map((b) => b.action_id)).toEqual([
      ACTION_IDS.sessionReplay,
      ACTION_IDS.sessionTimeline,
      ACTION_IDS.sessionClicks,
    ]);
    assertWithinSlackLimits(m);
  });
});
