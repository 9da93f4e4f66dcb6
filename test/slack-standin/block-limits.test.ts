import { describe, expect, it } from "vitest";
import { apiUrl, button, section, workspace } from "./helpers.ts";

// Slack refuses the whole message when one block breaks a limit and says where, as
// "[ERROR] … [json-pointer:/blocks/…]" lines in response_metadata.messages.

async function post(blocks: unknown) {
  return (await workspace().call("chat.postMessage", { channel: "C0DEMO", text: "fallback", blocks })).body;
}

const pointers = (body: Record<string, unknown>) =>
  ((body.response_metadata as { messages: string[] }).messages ?? []).map(
    (m) => m.match(/json-pointer:([^\]]+)/)?.[1],
  );

const header = (text: string) => ({ type: "header", text: { type: "plain_text", text } });
const fields = (n: number, length = 10) => ({
  type: "section",
  fields: Array.from({ length: n }, () => ({ type: "mrkdwn", text: "f".repeat(length) })),
});

const plain = (text: string) => ({ type: "plain_text", text });
const menu = (options: unknown[]) => ({
  type: "static_select",
  action_id: "snooze",
  placeholder: plain("Snooze…"),
  options,
});
const confirm = (title: string) => ({
  title: plain(title),
  text: plain("Sure?"),
  confirm: plain("Yes"),
  deny: plain("No"),
  style: "danger",
});

describe("block limits", () => {
  it.each([
    ["more than 50 blocks", Array.from({ length: 51 }, () => section("x")), "/blocks"],
    ["section text over 3000", [section("x".repeat(3001))], "/blocks/0/text/text"],
    ["header over 150", [header("h".repeat(151))], "/blocks/0/text/text"],
    ["more than 10 fields", [fields(11)], "/blocks/0/fields"],
    ["a field over 2000", [fields(2, 2001)], "/blocks/0/fields/0/text"],
    [
      "context with more than 10 elements",
      [{ type: "context", elements: Array.from({ length: 11 }, () => ({ type: "mrkdwn", text: "c" })) }],
      "/blocks/0/elements",
    ],
    [
      "button text over 75",
      [{ type: "actions", elements: [button("a", "v", "b".repeat(76))] }],
      "/blocks/0/elements/0/text/text",
    ],
    [
      "button value over 2000",
      [{ type: "actions", elements: [button("a", "v".repeat(2001))] }],
      "/blocks/0/elements/0/value",
    ],
    [
      "button url over 3000",
      [{ type: "actions", elements: [{ ...button("a", "v"), url: `https://x.test/${"u".repeat(3000)}` }] }],
      "/blocks/0/elements/0/url",
    ],
    [
      "a select option label over 75",
      [{ type: "actions", elements: [menu([{ text: plain("o".repeat(76)), value: "v" }])] }],
      "/blocks/0/elements/0/options/0/text/text",
    ],
    [
      "a select option value over 150",
      [{ type: "actions", elements: [menu([{ text: plain("o"), value: "v".repeat(151) }])] }],
      "/blocks/0/elements/0/options/0/value",
    ],
    ["a select with no options", [{ type: "actions", elements: [menu([])] }], "/blocks/0/elements/0/options"],
    [
      "more than 100 select options",
      [
        {
          type: "actions",
          elements: [menu(Array.from({ length: 101 }, (_, i) => ({ text: plain("o"), value: `v${i}` })))],
        },
      ],
      "/blocks/0/elements/0/options",
    ],
    [
      "a confirm title over 100",
      [{ type: "actions", elements: [{ ...button("a", "v"), confirm: confirm("t".repeat(101)) }] }],
      "/blocks/0/elements/0/confirm/title/text",
    ],
    [
      "a confirm without a deny label",
      [
        {
          type: "actions",
          elements: [{ ...button("a", "v"), confirm: { ...confirm("t"), deny: undefined } }],
        },
      ],
      "/blocks/0/elements/0/confirm/deny",
    ],
  ])("rejects %s as invalid_blocks and points at it", async (_name, blocks, pointer) => {
    const body = await post(blocks);
    expect(body.ok).toBe(false);
    expect(body.error).toBe("invalid_blocks");
    expect(pointers(body)).toContain(pointer);
  });

  it("accepts everything exactly at the limits", async () => {
    const blocks = [
      header("h".repeat(150)),
      section("x".repeat(3000)),
      fields(10, 2000),
      { type: "context", elements: Array.from({ length: 10 }, () => ({ type: "mrkdwn", text: "c" })) },
      {
        type: "actions",
        elements: [
          { ...button("a", "v".repeat(2000), "b".repeat(75)), url: `https://x.test/${"u".repeat(2985)}` },
        ],
      },
      {
        type: "actions",
        elements: [
          {
            ...menu(
              Array.from({ length: 100 }, (_, i) => ({
                text: plain("o".repeat(75)),
                value: `${i}`.padEnd(150, "v"),
              })),
            ),
            confirm: confirm("t".repeat(100)),
          },
        ],
      },
      ...Array.from({ length: 44 }, () => ({ type: "divider" })),
    ];
    expect(blocks).toHaveLength(50);
    expect((await post(blocks)).ok).toBe(true);
  });

  it("reports every problem, not just the first", async () => {
    const body = await post([header("h".repeat(151)), section("x".repeat(3001))]);
    expect(pointers(body)).toEqual(["/blocks/0/text/text", "/blocks/1/text/text"]);
  });

  it("answers invalid_blocks_format when blocks is not a JSON array", async () => {
    const ws = workspace();
    for (const blocks of ["not json", JSON.stringify({ type: "section" })]) {
      const form = new URLSearchParams({ channel: "C0DEMO", text: "x", blocks });
      const res = await fetch(`${apiUrl}chat.postMessage`, {
        method: "POST",
        headers: { Authorization: `Bearer ${ws.token}`, "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
      });
      expect(await res.json()).toEqual({ ok: false, error: "invalid_blocks_format" });
    }
  });

  it("rejects unknown block types and empty button labels", async () => {
    expect(pointers(await post([{ type: "carousel" }]))).toEqual(["/blocks/0/type"]);
    expect(pointers(await post([{ type: "actions", elements: [button("a", "v", "")] }]))).toEqual([
      "/blocks/0/elements/0/text/text",
    ]);
  });
});
