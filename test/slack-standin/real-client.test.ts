// The class the bot's client throws: its module (this package's index is another copy in workerd).
import { SlackAPIError } from "slack-web-api-client/dist/errors.js";
import { describe, expect, it } from "vitest";
import { createSlackClient } from "../../src/slack-api/slack-client.ts";
import { apiUrl, button, freshToken, section, workspace } from "./helpers.ts";

// The stand-in must understand exactly what the bot's Web API client sends (form fields,
// blocks as JSON text, Bearer token): src/slack-api/slack-client.ts, which sends what
// slack-web-api-client sends.

describe("with the bot's own Web API client", () => {
  const token = freshToken();
  const client = createSlackClient({ slackBotToken: token, slackApiUrl: apiUrl });

  it("posts, threads and updates Block Kit messages", async () => {
    const me = await client.auth.test();
    expect(me.user_id).toBe("U0DECIPHER");
    const posted = await client.chat.postMessage({
      channel: "C0ALERTS",
      text: "Checkout test failed",
      blocks: [
        section("*Checkout* failed"),
        { type: "actions" as const, elements: [button("retry", "run_9")] },
      ],
    });
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);
    await client.chat.postMessage({ channel: "C0ALERTS", text: "again", thread_ts: posted.ts });
    const updated = await client.chat.update({
      channel: "C0ALERTS",
      ts: posted.ts ?? "",
      text: "failing for 2 runs",
    });
    expect(updated.text).toBe("failing for 2 runs");
    const messages = await workspace(token).messages({ channel: "C0ALERTS" });
    expect(messages.map((m) => [m.text, m.edited, m.thread_ts === posted.ts])).toEqual([
      ["failing for 2 runs", true, true],
      ["again", false, true],
    ]);
    expect(messages[0]?.blocks?.[1]).toMatchObject({ type: "actions" });
  });

  it("surfaces Slack errors as SlackAPIError with the error code", async () => {
    const error = await client.chat
      .postMessage({ channel: "C0ARCHIVED", text: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlackAPIError);
    expect((error as SlackAPIError).error).toBe("is_archived");
  });
});
