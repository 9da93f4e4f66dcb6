import { describe, expect, it } from "vitest";
import { apiUrl, type SlackBody, workspace } from "./helpers.ts";

// The behaviours docs/slack-platform.md lists, each as Slack's pages describe it.

type Ws = ReturnType<typeof workspace>;

async function post(ws: Ws, n: number, channel = "C0ALERTS") {
  const tss: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await ws.call("chat.postMessage", { channel, text: `m${i}` });
    tss.push(String(res.body.ts));
  }
  return tss;
}

describe("distribution tiers for conversations.history and .replies", () => {
  it("internal (the default): a limit of 200 is honoured and reads are not throttled", async () => {
    const ws = workspace();
    await post(ws, 20);
    for (let i = 0; i < 3; i++) {
      const res = await ws.call("conversations.history", { channel: "C0ALERTS", limit: 200 });
      expect(res.status).toBe(200);
      expect((res.body.messages as unknown[]).length).toBe(20);
    }
  });

  it("distributed: a limit of 200 is answered with 15 and a cursor; a second call that minute is 429, Retry-After 60", async () => {
    const ws = workspace();
    await post(ws, 16);
    expect((await ws.admin("distribution", { distribution: "distributed" })).status).toBe(200);
    const first = await ws.call("conversations.history", { channel: "C0ALERTS", limit: 200 });
    expect(first.status).toBe(200);
    expect((first.body.messages as unknown[]).length).toBe(15);
    expect(first.body.has_more).toBe(true);
    const cursor = (first.body.response_metadata as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBe("");
    const second = await ws.call("conversations.history", { channel: "C0ALERTS", cursor, limit: 15 });
    expect(second.status).toBe(429);
    expect(second.headers.get("Retry-After")).toBe("60");
    expect(second.body).toEqual({ ok: false, error: "ratelimited" });
    // The limit is per method: replies still has its own minute.
    const parent = String((first.body.messages as Array<{ ts: string }>)[0]?.ts);
    const replies = await ws.call("conversations.replies", { channel: "C0ALERTS", ts: parent });
    expect(replies.status).toBe(200);
  });

  it("distributed: the cursor continues where the capped page stopped", async () => {
    const ws = workspace();
    const tss = await post(ws, 16);
    await ws.admin("distribution", { distribution: "distributed" });
    const first = await ws.call("conversations.history", { channel: "C0ALERTS", limit: 200 });
    const cursor = (first.body.response_metadata as { next_cursor: string }).next_cursor;
    // A fresh minute: a new distributed workspace would wait; switching back and forth is ours.
    await ws.admin("distribution", { distribution: "internal" });
    const rest = await ws.call("conversations.history", { channel: "C0ALERTS", cursor, limit: 200 });
    const seen = [
      ...(first.body.messages as Array<{ ts: string }>),
      ...(rest.body.messages as Array<{ ts: string }>),
    ];
    expect(seen.map((m) => m.ts)).toEqual([...tss].reverse());
  });

  it("internal with throttling on: Tier 3, the 51st history call in a minute is 429", async () => {
    const ws = workspace();
    await ws.admin("rate-limit", { enabled: true });
    for (let i = 0; i < 50; i++)
      expect((await ws.call("conversations.history", { channel: "C0ALERTS" })).status).toBe(200);
    const limited = await ws.call("conversations.history", { channel: "C0ALERTS" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("refuses an unknown distribution", async () => {
    expect((await workspace().admin("distribution", { distribution: "marketplace-ish" })).status).toBe(400);
  });
});

describe("a person deletes a message", () => {
  it("chat.update and chat.delete then answer message_not_found, and history no longer lists it", async () => {
    const ws = workspace();
    const [ts] = await post(ws, 1);
    expect((await ws.admin("messages/delete", { channelId: "C0ALERTS", ts })).status).toBe(200);
    expect((await ws.call("chat.update", { channel: "C0ALERTS", ts, text: "edit" })).body).toEqual({
      ok: false,
      error: "message_not_found",
    });
    expect((await ws.call("chat.delete", { channel: "C0ALERTS", ts })).body).toEqual({
      ok: false,
      error: "message_not_found",
    });
    const history = await ws.call("conversations.history", { channel: "C0ALERTS" });
    expect(history.body.messages).toEqual([]);
  });

  it("a reply to the deleted parent is accepted and goes under Slack's placeholder", async () => {
    const ws = workspace();
    const [ts] = await post(ws, 1);
    await ws.admin("messages/delete", { channelId: "C0ALERTS", ts });
    const reply = await ws.call("chat.postMessage", { channel: "C0ALERTS", thread_ts: ts, text: "again" });
    expect(reply.body.ok).toBe(true);
    const history = await ws.call("conversations.history", { channel: "C0ALERTS" });
    const [placeholder] = history.body.messages as Array<Record<string, unknown>>;
    expect(placeholder).toMatchObject({
      subtype: "tombstone",
      text: "This message was deleted.",
      ts,
      reply_count: 1,
    });
    expect(placeholder?.blocks).toBeUndefined();
  });

  it("chat.delete of the bot's own message works; of a person's answers cant_delete_message", async () => {
    const ws = workspace();
    const [ts] = await post(ws, 1);
    expect((await ws.call("chat.delete", { channel: "C0ALERTS", ts })).body).toEqual({
      ok: true,
      channel: "C0ALERTS",
      ts,
    });
    expect((await ws.call("chat.delete", { channel: "C0GENERAL", ts: "1700000000.000100" })).body.error).toBe(
      "cant_delete_message",
    );
  });
});

describe("posting restrictions per channel", () => {
  for (const restriction of [
    "restricted_action",
    "restricted_action_read_only_channel",
    "team_access_not_granted",
  ]) {
    it(`${restriction}: every post there is refused with it, other channels post`, async () => {
      const ws = workspace();
      await ws.admin("channels/restrict", { channelId: "C0ALERTS", restriction });
      const res = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: false, error: restriction });
      expect((await ws.call("chat.postMessage", { channel: "C0DEMO", text: "x" })).body.ok).toBe(true);
      await ws.admin("channels/restrict", { channelId: "C0ALERTS", restriction: null });
      expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" })).body.ok).toBe(true);
    });
  }

  it("thread-only takes replies only; non-threadable takes top-level messages only", async () => {
    const ws = workspace();
    const [ts] = await post(ws, 1);
    await ws.admin("channels/restrict", {
      channelId: "C0ALERTS",
      restriction: "restricted_action_thread_only_channel",
    });
    expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "top" })).body.error).toBe(
      "restricted_action_thread_only_channel",
    );
    expect(
      (await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "r", thread_ts: ts })).body.ok,
    ).toBe(true);
    await ws.admin("channels/restrict", {
      channelId: "C0ALERTS",
      restriction: "restricted_action_non_threadable_channel",
    });
    expect(
      (await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "r", thread_ts: ts })).body.error,
    ).toBe("restricted_action_non_threadable_channel");
    expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "top" })).body.ok).toBe(true);
  });

  for (const restriction of ["is_archived", "not_in_channel", "channel_not_found"]) {
    it(`${restriction}: the channel changes so that Slack answers it`, async () => {
      const ws = workspace();
      await ws.admin("channels/restrict", { channelId: "C0DEMO", restriction });
      expect((await ws.call("chat.postMessage", { channel: "C0DEMO", text: "x" })).body).toEqual({
        ok: false,
        error: restriction,
      });
    });
  }
});

describe("answers that are not clean", () => {
  it("ok-false: HTTP 200 { ok: false } without an error field, logged without one", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "ok-false" });
    const res = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false });
    const [call] = await ws.calls();
    expect(call?.ok).toBe(false);
    expect(call?.error).toBeUndefined();
    expect(await ws.messages({ channel: "C0ALERTS" })).toEqual([]);
  });

  it("html: a 502 with an HTML page instead of JSON", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.update", kind: "html", status: 502 });
    const res = await fetch(`${apiUrl}chat.update`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ws.token}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "channel=C0ALERTS&ts=1.2&text=x",
    });
    expect(res.status).toBe(502);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const text = await res.text();
    expect(text).toMatch(/^<!DOCTYPE html>/);
    expect(() => JSON.parse(text)).toThrow();
  });

  it("a content refusal: invalid_blocks with Slack's detail lines", async () => {
    const ws = workspace();
    const detail = "[ERROR] must be less than 51 characters [json-pointer:/blocks/1/title/text]";
    await ws.admin("faults", {
      method: "chat.postMessage",
      kind: "error",
      error: "invalid_blocks",
      details: [detail],
    });
    const res = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" });
    expect(res.body).toEqual({
      ok: false,
      error: "invalid_blocks",
      errors: [detail],
      response_metadata: { messages: [detail] },
    } satisfies SlackBody);
  });
});

describe("message_metadata_posted", () => {
  const metadata = { event_type: "decipher_alert", event_payload: { key: "t1:r1" } };

  it("is off by default: nothing is owed to the app", async () => {
    const ws = workspace();
    await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x", metadata });
    expect((await ws.admin("metadata-events/take")).body.envelopes).toEqual([]);
  });

  it("with the event type subscribed, a post with metadata owes one event shaped as Slack's page shows", async () => {
    const ws = workspace();
    await ws.admin("metadata-subscriptions", { eventTypes: ["decipher_alert"] });
    const posted = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x", metadata });
    await ws.call("chat.postMessage", {
      channel: "C0ALERTS",
      text: "y",
      metadata: { event_type: "other_type", event_payload: {} },
    });
    const { envelopes } = (await ws.admin("metadata-events/take")).body as unknown as {
      envelopes: Array<Record<string, unknown>>;
    };
    expect(envelopes).toHaveLength(1);
    const [envelope] = envelopes;
    expect(envelope).toMatchObject({ type: "event_callback", api_app_id: "A0DECIPHER" });
    expect(envelope?.authorizations).toEqual([expect.objectContaining({ is_bot: true })]);
    expect(envelope?.event).toEqual({
      type: "message_metadata_posted",
      app_id: "A0DECIPHER",
      bot_id: "B0DECIPHER",
      user_id: "U0DECIPHER",
      team_id: envelope?.team_id,
      channel_id: "C0ALERTS",
      metadata,
      message_ts: posted.body.ts,
      event_ts: posted.body.ts,
    });
    // Taken once: the queue is empty after.
    expect((await ws.admin("metadata-events/take")).body.envelopes).toEqual([]);
  });
});
