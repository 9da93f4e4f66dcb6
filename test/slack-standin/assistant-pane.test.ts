import { describe, expect, it } from "vitest";
import { standInUrl, workspace } from "./helpers.ts";

/**
 * Slack's assistant pane in the stand-in (docs/slack-platform.md, "The assistant pane"): a
 * person opens it, the app sets prompts and a status on the thread, with the method pages'
 * arguments and errors.
 */
async function opened() {
  const ws = workspace();
  const res = await ws.admin("assistant/threads", {
    userId: "U0ALICE",
    contextChannelId: "C0ALERTS",
    deliver: false,
  });
  expect(res.status).toBe(200);
  const { thread, events } = res.body as unknown as {
    thread: { channel: string; threadTs: string };
    events: { event: Record<string, unknown> }[];
  };
  const pane = async () => {
    const q = new URLSearchParams({ botToken: ws.token, userId: "U0ALICE" });
    const body = (await (await fetch(`${standInUrl}/__slack/assistant/threads?${q}`)).json()) as {
      threads: { prompts: unknown[]; status: string | null; promptsTitle: string | null }[];
    };
    return body.threads[0];
  };
  return { ws, thread, events, pane };
}

describe("the assistant pane", () => {
  it("opening it starts a thread in the person's DM and sends assistant_thread_started as Slack's page shows it", async () => {
    const { thread, events } = await opened();
    expect(thread.channel).toBe("D0ALICE");
    expect(events[0]?.event).toEqual({
      type: "assistant_thread_started",
      assistant_thread: {
        user_id: "U0ALICE",
        context: { channel_id: "C0ALERTS", team_id: expect.any(String), enterprise_id: null },
        channel_id: "D0ALICE",
        thread_ts: thread.threadTs,
      },
      event_ts: expect.any(String),
    });
  });

  it("setSuggestedPrompts: up to four prompts with title and message, on a thread Slack knows", async () => {
    const { ws, thread, pane } = await opened();
    const at = { channel_id: thread.channel, thread_ts: thread.threadTs };
    const prompt = { title: "What failed today?", message: "What failed today?" };
    // As the bot sends it: a form, the prompts as JSON text.
    const set = await ws.call("assistant.threads.setSuggestedPrompts", {
      ...at,
      prompts: [prompt],
      title: "Ask",
    });
    expect(set.body).toEqual({ ok: true });
    expect((await pane())?.prompts).toEqual([prompt]);
    const refused = async (params: Record<string, unknown>) =>
      (await ws.call("assistant.threads.setSuggestedPrompts", params, "json")).body.error;
    expect(await refused({ ...at, prompts: Array(5).fill(prompt) })).toBe("invalid_arguments");
    expect(await refused({ ...at, prompts: [{ title: "no message" }] })).toBe("invalid_arguments");
    expect(await refused({ ...at, channel_id: "D0NOBODY", prompts: [prompt] })).toBe("channel_not_found");
    expect(await refused({ ...at, thread_ts: "1700000000.999999", prompts: [prompt] })).toBe(
      "invalid_thread_ts",
    );
    await ws.admin("scopes", { scopes: ["chat:write"] });
    expect(await refused({ ...at, prompts: [prompt] })).toBe("missing_scope");
  });

  it("setStatus shows until the app's next message in the thread; chat:write is enough", async () => {
    const { ws, thread, pane } = await opened();
    await ws.admin("scopes", { scopes: ["chat:write"] });
    const at = { channel_id: thread.channel, thread_ts: thread.threadTs };
    expect((await ws.call("assistant.threads.setStatus", { ...at, status: "is looking…" })).body.ok).toBe(
      true,
    );
    expect((await pane())?.status).toBe("is looking…");
    await ws.call("chat.postMessage", {
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: "answer",
    });
    expect((await pane())?.status).toBeNull();
    expect((await ws.call("assistant.threads.setStatus", at)).body.error).toBe("invalid_arguments");
  });
});
