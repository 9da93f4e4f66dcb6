import { SlackAPIClient, SlackAPIError } from "slack-web-api-client";
import { describe, expect, it } from "vitest";
import { apiUrl, button, freshToken, section, workspace } from "./helpers.ts";

// The bot talks to Slack through slack-web-api-client; the stand-in must understand exactly
// what that client sends (form fields, blocks as JSON text, Bearer token).

describe("with the bot's own Web API client", () => {
  const token = freshToken();
  const client = new SlackAPIClient(token, { baseUrl: apiUrl, retryHandlers: [] });

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
