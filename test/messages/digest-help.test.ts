import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import { digestMessage } from "../../src/messages/digest-message.ts";
import { findSessionsModal } from "../../src/messages/find-sessions-modal.ts";
import { decipherHelpMessage, errorMessage, usageMessage } from "../../src/messages/help.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { APP, aCollection, aTest, NOW } from "./fixtures.ts";

describe("the default time range of a session search", () => {
  it("reads the same in /sessions usage and the Find sessions form: all recorded sessions, as neither sends a since", () => {
    const bare = visibleText(usageMessage())
      .split("\n")
      .find((l) => l.includes("/sessions jane@acme.com`"));
    expect(bare).toContain("all of Jane's recorded sessions");
    expect(bare).not.toMatch(/sessions of the last 7 days/);
    expect(JSON.stringify(findSessionsModal())).toContain("Default: all recorded sessions.");
  });
});

describe("/decipher help", () => {
  it("shows every option of subscribe test in its usage line, mention: included", () => {
    const line = visibleText(decipherHelpMessage())
      .split("\n")
      .find((l) => l.includes("subscribe test ") && l.includes("trigger:"));
    expect(line).toContain("[mention:@person|@group]");
  });
});

describe("daily digest", () => {
  const base = { date: "2026-02-16", zone: "Europe/Berlin", appUrl: APP, now: NOW };

  it("is titled as a digest", () => {
    const m = digestMessage({ ...base, collections: [], tests: [] });
    expect(m.blocks[0]).toMatchObject({
      type: "header",
      text: { text: ":newspaper: Daily Decipher digest — 2026-02-16" },
    });
    expect(m.text).toContain("Daily Decipher digest");
  });

  it("lists collections with the fastest-growing first", () => {
    const m = digestMessage({
      ...base,
      collections: [
        { collection: aCollection({ rootCause: "Slow cart" }), newSessions24h: { count: 2, atLeast: false } },
        {
          collection: aCollection({ rootCause: "Stripe down" }),
          newSessions24h: { count: 9, atLeast: false },
        },
      ],
      tests: [],
    });
    const t = visibleText(m);
    expect(t.indexOf("Stripe down")).toBeLessThan(t.indexOf("Slow cart"));
    expect(t).toContain("20 sessions (+9 in 24 h) · 31 errors · 14 users · unresolved");
  });

  it("calls a 24-hour figure '24 h' only when it is one", () => {
    const t = visibleText(
      digestMessage({
        ...base,
        collections: [
          { collection: aCollection({ rootCause: "Capped" }), newSessions24h: { count: 50, atLeast: true } },
          { collection: aCollection({ rootCause: "No answer" }), newSessions24h: null },
        ],
        tests: [],
      }),
    );
    expect(t).toContain("(+50+ in 24 h)");
    expect(t).toContain("(24 h change unknown)");
  });

  it("lists tests with runs, failures, pass rate and state", () => {
    const m = digestMessage({
      ...base,
      collections: [],
      tests: [{ test: aTest, runs24h: 12, failures24h: 3, passRate: 0.75, state: "failing" }],
    });
    expect(visibleText(m)).toContain(
      `<${APP}/tests/7|Checkout works> · :red_circle: failing · 12 runs, 3 failures · 75 % passed`,
    );
  });

  it("says so when a section is empty", () => {
    const t = visibleText(digestMessage({ ...base, collections: [], tests: [] }));
    expect(t).toContain("No issue collections watched in this channel");
    expect(t).toContain("No tests watched in this channel");
  });

  it("stays within limits with hundreds of entries and counts what it left out", () => {
    const collections = Array.from({ length: 500 }, (_, i) => ({
      collection: aCollection({ id: i, rootCause: `cause ${"x".repeat(200)} ${i}` }),
      newSessions24h: { count: i, atLeast: false },
    }));
    const m = digestMessage({ ...base, collections, tests: [] });
    assertWithinSlackLimits(m);
    expect(visibleText(m)).toMatch(/…and \d+ more collections/);
  });
});

describe("help and errors", () => {
  it("/sessions usage leads with the problem and gives examples", () => {
    const m = usageMessage("Give an email, user:<id> or url:<text>.");
    const t = visibleText(m);
    expect(t).toContain(":warning: Give an email, user:&lt;id&gt; or url:&lt;text&gt;.");
    expect(t).toContain("/sessions jane@acme.com");
    assertWithinSlackLimits(m);
  });

  it("/decipher help lists every subcommand", () => {
    const m = decipherHelpMessage();
    const t = visibleText(m);
    for (const sub of [
      "subscribe test",
      "subscribe collection",
      "growth:",
      "unsubscribe",
      "list",
      "digest &lt;HH:MM&gt;",
      "digest off",
      "status",
      "help",
    ]) {
      expect(t).toContain(sub);
    }
    assertWithinSlackLimits(m);
  });

  it("/decipher help names the flaky rule the alerts use: a few failures, or a test that keeps flipping", () => {
    const t = visibleText(decipherHelpMessage());
    expect(t).toContain("at most 40 % failed");
    expect(t).toContain("failed again after passing 2+ times");
  });

  it("/decipher help lists the /sessions filters", () => {
    const t = visibleText(decipherHelpMessage());
    for (const filter of [
      "/sessions &lt;email&gt;",
      "user:&lt;userId&gt;",
      "url:&lt;text&gt;",
      "since:",
      "until:",
    ]) {
      expect(t).toContain(filter);
    }
  });

  it("an error is one escaped sentence", () => {
    const m = errorMessage("The Decipher API key was rejected <check DECIPHER_API_KEY>.");
    expect(m.text).toBe("The Decipher API key was rejected &lt;check DECIPHER_API_KEY&gt;.");
    assertWithinSlackLimits(m);
  });
});
