import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mrkdwnProblems, strictMessageProblems } from "../../dev/slack/block-limits.ts";
import { fitMessage, type MessageBlock, truncateMrkdwn, truncatePlain } from "../../src/messages/limits.ts";
import { escapeMrkdwn, link } from "../../src/messages/mrkdwn.ts";
import * as SLACK_LIMITS from "../../src/messages/slack-limits.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("truncatePlain", () => {
  it("leaves text within the limit alone", () => {
    expect(truncatePlain("Checkout works", 75)).toBe("Checkout works");
  });

  it("ends a cut with an ellipsis and stays within the limit", () => {
    const cut = truncatePlain("a".repeat(200), 150);
    expect(cut).toHaveLength(150);
    expect(cut.endsWith("…")).toBe(true);
  });

  it("never splits an emoji's surrogate pair", () => {
    const cut = truncatePlain("😀".repeat(100), 76);
    expect(LONE_SURROGATE.test(cut)).toBe(false);
    expect(cut.length).toBeLessThanOrEqual(76);
  });
});

describe("truncateMrkdwn", () => {
  it("cuts before a link rather than inside it", () => {
    const text = `${"x".repeat(20)} ${link("https://app.test/sessions/1", "jane@acme.com")}`;
    const cut = truncateMrkdwn(text, 30);
    expect(cut).toBe(`${"x".repeat(20)}…`);
  });

  it("cuts before an escape entity rather than inside it", () => {
    const text = `${"x".repeat(8)}&amp;rest of it`;
    expect(truncateMrkdwn(text, 11)).toBe(`${"x".repeat(8)}…`);
  });

  it("cuts before a date token rather than inside it", () => {
    const text = `Seen <!date^1771232400^{date_short_pretty} at {time}|2026-02-16 09:00 UTC> by Jane`;
    expect(truncateMrkdwn(text, 40)).toBe("Seen…");
  });

  it("keeps a token that ends right at the limit", () => {
    const text = "ab <@U123> and more text";
    expect(truncateMrkdwn(text, 12)).toBe("ab <@U123>…");
  });

  it("for any escaped text and limit: within the limit, no broken token, no lone surrogate", () => {
    const pieces = fc.array(
      fc.oneof(
        fc.string({ unit: "binary", maxLength: 10 }).map(escapeMrkdwn),
        fc.constantFrom(
          link("https://x.test/?a=1&b=2", "a <b> & c"),
          "<!date^1771232400^{time}|09:00 UTC>",
          "<@U0ABC>",
          "😀",
        ),
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(pieces, fc.integer({ min: 1, max: 200 }), (parts, max) => {
        const cut = truncateMrkdwn(parts.join(""), max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(mrkdwnProblems(cut, "cut")).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

const section = (text: string): MessageBlock => ({ type: "section", text: { type: "mrkdwn", text } });

describe("fitMessage", () => {
  it("always leaves a text fallback", () => {
    expect(fitMessage({ text: "  ", blocks: [] }).text).not.toBe("");
  });

  it("caps the message at 50 blocks, keeps the closing More button and says it shortened", () => {
    const more: MessageBlock = {
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "More" },
          action_id: "sessions_more",
          value: "v",
        },
      ],
    };
    const blocks = [...Array.from({ length: 80 }, (_, i) => section(`card ${i}`)), more];
    const fitted = fitMessage({ text: "80 sessions", blocks });
    expect(fitted.blocks).toHaveLength(SLACK_LIMITS.blocksPerMessage);
    expect(fitted.blocks.at(-1)).toEqual(more);
    expect(JSON.stringify(fitted.blocks.at(-2))).toContain("shortened");
    expect(JSON.stringify(fitted.blocks[0])).toContain("card 0");
  });

  it("drops a link whose URL is over 3000 chars but keeps its label", () => {
    const url = `https://shots.test/${"a".repeat(3100)}`;
    const fitted = fitMessage({ text: "t", blocks: [section(`see <${url}|screenshot>`)] });
    expect(fitted.blocks[0]).toEqual(section("see screenshot"));
  });

  it("drops an over-long URL from a button, and the button when it was only a link", () => {
    const url = `https://app.test/${"a".repeat(3100)}`;
    const fitted = fitMessage({
      text: "t",
      blocks: [
        {
          type: "actions",
          elements: [
            { type: "button", text: { type: "plain_text", text: "Open" }, action_id: "run_open", url },
            { type: "button", text: { type: "plain_text", text: "Run" }, action_id: "x", url, value: "12" },
          ],
        },
      ],
    });
    expect(fitted.blocks).toEqual([
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Run" }, action_id: "x", value: "12" },
        ],
      },
    ]);
  });

  it("clamps every text to its limit and removes what would be empty", () => {
    const fitted = fitMessage({
      text: "x".repeat(5000),
      blocks: [
        { type: "header", text: { type: "plain_text", text: "h".repeat(400) } },
        section(""),
        {
          type: "section",
          fields: Array.from({ length: 12 }, () => ({ type: "mrkdwn" as const, text: "f".repeat(2500) })),
        },
        {
          type: "context",
          elements: Array.from({ length: 14 }, () => ({ type: "mrkdwn" as const, text: "c" })),
        },
      ],
    });
    expect(strictMessageProblems(fitted)).toEqual([]);
    expect(fitted.blocks.map((b) => b.type)).toEqual(["header", "section", "context"]);
  });
});
