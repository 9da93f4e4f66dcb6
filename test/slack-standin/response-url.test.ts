import { describe, expect, it } from "vitest";
import { button, section, workspace } from "./helpers.ts";

type Ws = ReturnType<typeof workspace>;

async function mint(ws: Ws, extra: Record<string, unknown> = {}) {
  const res = await ws.admin("response-urls", { channelId: "C0DEMO", userId: "U0ALICE", ...extra });
  return String(res.body.responseUrl);
}

async function respond(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; error?: string } };
}

describe("response_url", () => {
  it("posts an ephemeral reply for the invoking user by default", async () => {
    const ws = workspace();
    const url = await mint(ws);
    expect(await respond(url, { text: "3 sessions", blocks: [section("card")] })).toEqual({
      status: 200,
      body: { ok: true },
    });
    const [m] = await ws.messages({ channel: "C0DEMO" });
    expect(m).toMatchObject({
      text: "3 sessions",
      ephemeral: true,
      visible_to: "U0ALICE",
      via: "response_url",
    });
  });

  it("posts to the channel with response_type in_channel, and into a thread with thread_ts", async () => {
    const ws = workspace();
    const parent = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "parent" });
    const url = await mint(ws);
    await respond(url, { text: "shared", response_type: "in_channel" });
    await respond(url, { text: "in thread", response_type: "in_channel", thread_ts: parent.body.ts });
    const messages = await ws.messages({ channel: "C0DEMO" });
    expect(messages.map((m) => [m.text, m.ephemeral, m.thread_ts])).toEqual([
      ["parent", false, parent.body.ts],
      ["shared", false, null],
      ["in thread", false, parent.body.ts],
    ]);
  });

  it("replace_original replaces the ephemeral that held the button, keeping it ephemeral and unmarked, as Slack shows no (edited) there", async () => {
    const ws = workspace();
    const eph = await ws.call("chat.postEphemeral", {
      channel: "C0DEMO",
      user: "U0ALICE",
      text: "page 1",
      blocks: [section("page 1"), { type: "actions", elements: [button("more", "c2")] }],
    });
    const url = await mint(ws, { messageTs: eph.body.message_ts });
    await respond(url, { replace_original: true, text: "page 2", blocks: [section("page 2")] });
    const messages = await ws.messages({ channel: "C0DEMO" });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      ts: eph.body.message_ts,
      text: "page 2",
      edited: false,
      ephemeral: true,
    });
  });

  it("replace_original on a channel message edits it, marked (edited) like a chat.update edit", async () => {
    const ws = workspace();
    const posted = await ws.call("chat.postMessage", {
      channel: "C0DEMO",
      text: "alert",
      blocks: [section("alert"), { type: "actions", elements: [button("ack", "a1")] }],
    });
    const url = await mint(ws, { messageTs: posted.body.ts });
    await respond(url, { replace_original: true, text: "alert, acknowledged" });
    const [m] = await ws.messages({ channel: "C0DEMO" });
    expect(m).toMatchObject({
      ts: posted.body.ts,
      text: "alert, acknowledged",
      edited: true,
      ephemeral: false,
    });
  });

  it("delete_original removes the message that held the button", async () => {
    const ws = workspace();
    const posted = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "bye" });
    const url = await mint(ws, { messageTs: posted.body.ts });
    expect((await respond(url, { delete_original: true })).status).toBe(200);
    expect(await ws.messages({ channel: "C0DEMO" })).toEqual([]);
  });

  it("works five times, then answers used_url", async () => {
    const ws = workspace();
    const url = await mint(ws);
    for (let i = 1; i <= 5; i++) expect((await respond(url, { text: `reply ${i}` })).status).toBe(200);
    expect(await respond(url, { text: "sixth" })).toEqual({
      status: 404,
      body: { ok: false, error: "used_url" },
    });
    expect((await ws.messages({ channel: "C0DEMO" })).length).toBe(5);
  });

  it("expires after 30 minutes", async () => {
    const ws = workspace();
    const fresh = await mint(ws, { ageSeconds: 29 * 60 });
    const stale = await mint(ws, { ageSeconds: 30 * 60 + 1 });
    expect((await respond(fresh, { text: "ok" })).status).toBe(200);
    expect(await respond(stale, { text: "late" })).toEqual({
      status: 404,
      body: { ok: false, error: "expired_url" },
    });
  });

  it("validates content like chat.postMessage and does not count a rejected post as a use", async () => {
    const ws = workspace();
    const url = await mint(ws);
    expect((await respond(url, {})).body.error).toBe("no_text");
    expect((await respond(url, { text: "x", blocks: [section("x".repeat(3001))] })).body.error).toBe(
      "invalid_blocks",
    );
    for (let i = 0; i < 5; i++) expect((await respond(url, { text: "fine" })).status).toBe(200);
  });

  it("answers 404 for a URL it never issued", async () => {
    const ws = workspace();
    const url = await mint(ws);
    expect((await respond(`${url}x`, { text: "x" })).status).toBe(404);
  });
});
