import { describe, expect, it } from "vitest";
import { mrkdwnProblems, strictMessageProblems, validateBlocks } from "../../dev/slack/block-limits.ts";
import type { SlackMessage } from "../../src/messages/limits.ts";

// Every builder test relies on the checker, so it must be seen failing.
describe("the Slack-limits checker used by the builder tests", () => {
  it("accepts links, date tokens, mentions and entities", () => {
    expect(
      mrkdwnProblems(
        "<https://a.test/x?a=1&amp;b|A &amp; B> <!date^1^{time}|09:00 UTC> <@U1AB> &lt;x&gt;",
        "t",
      ),
    ).toEqual([]);
  });

  it.each([
    ["<https://a.test|", "unclosed link"],
    ["<javascript:alert(1)|x>", "non-http link"],
    ["<!channel>", "a ping"],
    ["a > b", "stray >"],
    ["a & b", "bare &"],
    ["&am", "cut entity"],
    ["\uD83D", "lone surrogate"],
  ])("flags %j (%s)", (text) => {
    expect(mrkdwnProblems(text, "t")).not.toEqual([]);
  });

  it("flags every limit", () => {
    const button = (text: string, extra: object = {}) => ({
      type: "button" as const,
      text: { type: "plain_text" as const, text },
      action_id: "a",
      ...extra,
    });
    const bad: SlackMessage = {
      text: "",
      blocks: [
        ...Array.from({ length: 47 }, () => ({ type: "divider" as const })),
        { type: "header", text: { type: "plain_text", text: "h".repeat(151) } },
        {
          type: "section",
          text: { type: "mrkdwn", text: "s".repeat(3001) },
          fields: Array.from({ length: 11 }, () => ({ type: "mrkdwn" as const, text: "f" })),
        },
        {
          type: "context",
          elements: Array.from({ length: 11 }, () => ({ type: "mrkdwn" as const, text: "c" })),
        },
        {
          type: "actions",
          elements: [
            button("b".repeat(76)),
            button("ok", { value: "v".repeat(2001) }),
            button("ok", { url: `https://x.test/${"u".repeat(3000)}` }),
          ],
        },
      ],
    };
    const problems = strictMessageProblems(bad).join("\n");
    for (const expected of [
      "empty fallback text [json-pointer:/text]",
      "no more than 50 items allowed [json-pointer:/blocks]",
      "[json-pointer:/blocks/47/text/text]",
      "[json-pointer:/blocks/48/text/text]",
      "[json-pointer:/blocks/48/fields]",
      "[json-pointer:/blocks/49/elements]",
      "[json-pointer:/blocks/50/elements/0/text/text]",
      "[json-pointer:/blocks/50/elements/1/value]",
      "[json-pointer:/blocks/50/elements/2/url]",
      "duplicate action_id [json-pointer:/blocks/50/elements/1/action_id]",
    ]) {
      expect(problems).toContain(expected);
    }
  });

  it("keeps what Slack itself refuses apart from what only the strict checks refuse", () => {
    const stray = [{ type: "section", text: { type: "mrkdwn", text: "a > b" } }];
    expect(validateBlocks(stray)).toEqual([]);
    expect(validateBlocks(stray, 50, "/blocks", { strict: true })).toEqual([
      "[STRICT] stray > at 2 [json-pointer:/blocks/0/text/text]",
    ]);
    const long = [{ type: "header", text: { type: "plain_text", text: "h".repeat(151) } }];
    expect(validateBlocks(long)).toEqual([
      "[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]",
    ]);
  });
});
