import { describe, expect, it } from "vitest";
import { standInUrl } from "../../dev/in-workerd/bot.ts";
import { leakingLines, mustNotLog, parseSlackBody } from "../setup/secret-watch.ts";

// The secret watch (test/setup/secret-watch.ts) fails any test file whose console output holds
// a response_url or what a person typed. These pin down what it looks for.

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const payload = (value: unknown) => form({ payload: JSON.stringify(value) });

describe("what the log watch takes from a request", () => {
  it("a command's response_url and text, not its ids", () => {
    const body = parseSlackBody(
      form({
        command: "/sessions",
        text: "jane@acme.com since:24h",
        user_id: "U0ALICE123",
        response_url: "https://hooks.slack.com/commands/T1/2/abc",
      }),
      "application/x-www-form-urlencoded",
    );
    expect(mustNotLog(body).sort()).toEqual(
      ["https://hooks.slack.com/commands/T1/2/abc", "jane@acme.com since:24h"].sort(),
    );
  });

  it("the values typed into a modal and a dialog, and every response_url of a modal", () => {
    const modal = parseSlackBody(
      payload({
        type: "view_submission",
        view: {
          callback_id: "find",
          state: { values: { b: { a: { type: "plain_text_input", value: "checkout is broken again" } } } },
        },
        response_urls: [{ response_url: "https://hooks.slack.com/app/T1/2/modal" }],
      }),
      "application/x-www-form-urlencoded",
    );
    expect(mustNotLog(modal).sort()).toEqual(
      ["checkout is broken again", "https://hooks.slack.com/app/T1/2/modal"].sort(),
    );
    const dialog = parseSlackBody(
      payload({ type: "dialog_submission", submission: { reason: "my password is hunter2" } }),
      "application/x-www-form-urlencoded",
    );
    expect(mustNotLog(dialog)).toEqual(["my password is hunter2"]);
  });

  it("the text of the messages an event carries", () => {
    const event = parseSlackBody(
      JSON.stringify({
        type: "event_callback",
        event: {
          type: "message",
          message: { text: "the edited words" },
          previous_message: { text: "the first words" },
        },
      }),
      "application/json",
    );
    expect(mustNotLog(event).sort()).toEqual(["the edited words", "the first words"]);
  });

  it("leaves out values too short to say anything", () => {
    expect(mustNotLog({ command: "/decipher", text: "help" })).toEqual([]);
  });
});

describe("which log lines it fails", () => {
  it("a line with a watched value or with anything shaped like a response URL", () => {
    const lines = [
      'poll cycle {"subscriptions":3}',
      "a reply to https://hooks.slack.com/actions/T1/2/xyz failed",
      `posting to ${standInUrl}/response/abc123`,
      "looked up jane@acme.com since:24h",
    ];
    expect(leakingLines(lines, ["jane@acme.com since:24h"])).toEqual(lines.slice(1));
  });
});
