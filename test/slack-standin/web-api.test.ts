import { describe, expect, it } from "vitest";
import { button, callApi, section, workspace } from "./helpers.ts";

const TS = /^\d{10}\.\d{6}$/;

describe("authentication", () => {
  it("answers not_authed without a token, with HTTP 200 like Slack", async () => {
    const res = await callApi("auth.test", {}, { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, error: "not_authed" });
  });

  it("answers invalid_auth for tokens that are not bot tokens or are revoked", async () => {
    for (const token of ["xoxp-user-token", "nonsense", "xoxb-revoked-123"]) {
      expect((await callApi("auth.test", {}, { token })).body).toEqual({ ok: false, error: "invalid_auth" });
    }
  });

  it("takes the token from a `token` form field too", async () => {
    const res = await callApi("auth.test", { token: "xoxb-form-field" });
    expect(res.body.ok).toBe(true);
  });

  it("describes the bot and its workspace in auth.test", async () => {
    const { body } = await workspace().call("auth.test");
    expect(body).toMatchObject({ ok: true, user: "decipher", user_id: "U0DECIPHER", bot_id: "B0DECIPHER" });
    expect(body.team_id).toMatch(/^T[0-9A-Z]+$/);
    expect(body.url).toMatch(/^https:\/\/.+\.slack\.com\/$/);
    expect(body.team).toEqual(expect.any(String));
  });

  it("answers unknown_method for methods it does not have", async () => {
    const { body } = await workspace().call("chat.scheduleMessages");
    expect(body).toMatchObject({ ok: false, error: "unknown_method" });
  });
});

describe("chat.postMessage", () => {
  it("returns channel, ts and the stored message, and the message is visible to inspection", async () => {
    const ws = workspace();
    const blocks = [section("*Test failed*"), { type: "actions", elements: [button("retry", "run-7")] }];
    const { body } = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "Test failed", blocks });
    expect(body).toMatchObject({ ok: true, channel: "C0ALERTS", ts: expect.stringMatching(TS) });
    const message = body.message as Record<string, unknown>;
    expect(message).toMatchObject({ type: "message", text: "Test failed", user: "U0DECIPHER", ts: body.ts });
    // Slack gives every block a block_id.
    expect((message.blocks as Array<{ block_id: string }>).every((b) => typeof b.block_id === "string")).toBe(
      true,
    );
    const [stored] = await ws.messages({ channel: "C0ALERTS" });
    expect(stored).toMatchObject({ ts: body.ts, text: "Test failed", ephemeral: false, edited: false });
  });

  it("accepts a JSON body the same as a form body", async () => {
    const ws = workspace();
    const blocks = [section("hello")];
    const form = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "form", blocks }, "form");
    const json = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "json", blocks }, "json");
    expect(form.body.ok && json.body.ok).toBe(true);
    const stored = await ws.messages({ channel: "C0DEMO" });
    expect(stored.map((m) => [m.text, m.blocks?.[0]?.type])).toEqual([
      ["form", "section"],
      ["json", "section"],
    ]);
  });

  it("issues unique, increasing Slack timestamps", async () => {
    const ws = workspace();
    const ts: string[] = [];
    for (let i = 0; i < 5; i++) {
      ts.push(String((await ws.call("chat.postMessage", { channel: "C0DEMO", text: `n${i}` })).body.ts));
    }
    expect(new Set(ts).size).toBe(5);
    expect([...ts].sort()).toEqual(ts);
  });

  it("threads replies under a parent and counts them on the parent", async () => {
    const ws = workspace();
    const parent = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "parent" });
    const reply = await ws.call("chat.postMessage", {
      channel: "C0ALERTS",
      text: "still failing",
      thread_ts: parent.body.ts,
    });
    expect((reply.body.message as Record<string, unknown>).thread_ts).toBe(parent.body.ts);
    const thread = await ws.messages({ channel: "C0ALERTS", thread_ts: String(parent.body.ts) });
    expect(thread.map((m) => m.text)).toEqual(["parent", "still failing"]);
    expect(thread[0]?.reply_count).toBe(1);
  });

  it("rejects a thread_ts that names no message", async () => {
    const { body } = await workspace().call("chat.postMessage", {
      channel: "C0ALERTS",
      text: "x",
      thread_ts: "1600000000.000100",
    });
    expect(body).toEqual({ ok: false, error: "invalid_thread_ts" });
  });

  it.each([
    ["C0NOPE", "channel_not_found"],
    ["C0NOTIN", "not_in_channel"],
    ["C0ARCHIVED", "is_archived"],
  ])("posting to %s answers %s", async (channel, error) => {
    const res = await workspace().call("chat.postMessage", { channel, text: "hi" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, error });
  });

  it("needs text or blocks (no_text) and caps text at 40,000 characters (msg_too_long)", async () => {
    const ws = workspace();
    expect((await ws.call("chat.postMessage", { channel: "C0DEMO" })).body.error).toBe("no_text");
    expect(
      (await ws.call("chat.postMessage", { channel: "C0DEMO", text: "x".repeat(40_001) })).body.error,
    ).toBe("msg_too_long");
    expect((await ws.call("chat.postMessage", { channel: "C0DEMO", text: "x".repeat(40_000) })).body.ok).toBe(
      true,
    );
  });

  it("accepts a channel name and a user id (a DM)", async () => {
    const ws = workspace();
    expect((await ws.call("chat.postMessage", { channel: "#alerts", text: "x" })).body.channel).toBe(
      "C0ALERTS",
    );
    expect((await ws.call("chat.postMessage", { channel: "U0ALICE", text: "x" })).body.channel).toBe(
      "D0ALICE",
    );
  });
});

describe("chat.update", () => {
  it("edits the bot's message in place and says so", async () => {
    const ws = workspace();
    const posted = await ws.call("chat.postMessage", {
      channel: "C0ALERTS",
      text: "failing",
      blocks: [section("a")],
    });
    const { body } = await ws.call("chat.update", {
      channel: "C0ALERTS",
      ts: posted.body.ts,
      text: "failing for 3 runs",
    });
    expect(body).toMatchObject({
      ok: true,
      channel: "C0ALERTS",
      ts: posted.body.ts,
      text: "failing for 3 runs",
    });
    expect((body.message as Record<string, unknown>).text).toBe("failing for 3 runs");
    const [stored] = await ws.messages({ channel: "C0ALERTS" });
    // Blocks not sent in the update are kept, like Slack.
    expect(stored).toMatchObject({ text: "failing for 3 runs", edited: true });
    expect(stored?.blocks?.[0]?.type).toBe("section");
  });

  it("answers message_not_found for an unknown ts and cant_update_message for someone else's", async () => {
    const ws = workspace();
    expect(
      (await ws.call("chat.update", { channel: "C0ALERTS", ts: "1600000000.000100", text: "x" })).body,
    ).toEqual({
      ok: false,
      error: "message_not_found",
    });
    const [human] = await ws.messages({ channel: "C0GENERAL" });
    expect(human?.user).toBe("U0ALICE");
    expect((await ws.call("chat.update", { channel: "C0GENERAL", ts: human?.ts, text: "x" })).body).toEqual({
      ok: false,
      error: "cant_update_message",
    });
  });

  it("cannot reach ephemeral messages", async () => {
    const ws = workspace();
    const eph = await ws.call("chat.postEphemeral", { channel: "C0DEMO", user: "U0BOB", text: "only bob" });
    const { body } = await ws.call("chat.update", { channel: "C0DEMO", ts: eph.body.message_ts, text: "x" });
    expect(body.error).toBe("message_not_found");
  });
});

describe("chat.postEphemeral", () => {
  it("stores a message only the named user sees and returns message_ts", async () => {
    const ws = workspace();
    const { body } = await ws.call("chat.postEphemeral", { channel: "C0DEMO", user: "U0BOB", text: "psst" });
    expect(body).toEqual({ ok: true, message_ts: expect.stringMatching(TS) });
    const [stored] = await ws.messages({ channel: "C0DEMO" });
    expect(stored).toMatchObject({ ephemeral: true, visible_to: "U0BOB", text: "psst" });
  });

  it("answers user_not_in_channel for an unknown user and channel errors like postMessage", async () => {
    const ws = workspace();
    expect(
      (await ws.call("chat.postEphemeral", { channel: "C0DEMO", user: "U0NOBODY", text: "x" })).body.error,
    ).toBe("user_not_in_channel");
    expect(
      (await ws.call("chat.postEphemeral", { channel: "C0ARCHIVED", user: "U0BOB", text: "x" })).body.error,
    ).toBe("is_archived");
  });
});

describe("conversations.info and users.info", () => {
  it("describes seeded channels, including archived and not-a-member ones", async () => {
    const ws = workspace();
    const demo = await ws.call("conversations.info", { channel: "C0DEMO" });
    expect(demo.body.channel).toMatchObject({
      id: "C0DEMO",
      name: "decipher-demo",
      is_archived: false,
      is_member: true,
    });
    expect((await ws.call("conversations.info", { channel: "C0ARCHIVED" })).body.channel).toMatchObject({
      is_archived: true,
    });
    expect((await ws.call("conversations.info", { channel: "C0NOTIN" })).body.channel).toMatchObject({
      is_member: false,
    });
    expect((await ws.call("conversations.info", { channel: "C0NOPE" })).body).toEqual({
      ok: false,
      error: "channel_not_found",
    });
  });

  it("describes users and answers user_not_found otherwise", async () => {
    const ws = workspace();
    const { body } = await ws.call("users.info", { user: "U0ALICE" });
    expect(body.user).toMatchObject({ id: "U0ALICE", name: "alice", real_name: "Alice Ng" });
    expect((body.user as { profile: { display_name: string } }).profile.display_name).toBe("alice");
    expect((await ws.call("users.info", { user: "U0NOBODY" })).body).toEqual({
      ok: false,
      error: "user_not_found",
    });
  });
});

describe("a person's role (POST /__slack/users)", () => {
  it("users.info reports guests and admins as Slack's user object does, and a guest is only in their channels", async () => {
    const ws = workspace();
    const roles = async (user: string) => {
      const u = (await ws.call("users.info", { user })).body.user as Record<string, unknown>;
      return [u.is_admin, u.is_owner, u.is_restricted, u.is_ultra_restricted];
    };
    expect(await roles("U0ALICE")).toEqual([false, false, false, false]);
    await ws.admin("users", { userId: "U0GUEST", role: "guest", channels: ["C0ALERTS", "C0DEMO"] });
    await ws.admin("users", { userId: "U0SOLO", role: "single-channel-guest" });
    await ws.admin("users", { userId: "U0BOB", role: "owner" });
    expect(await roles("U0GUEST")).toEqual([false, false, true, false]);
    expect(await roles("U0SOLO")).toEqual([false, false, true, true]);
    expect(await roles("U0BOB")).toEqual([true, true, false, false]);
    const channels = async (user: string) =>
      ((await ws.call("users.conversations", { user })).body.channels as { id: string }[]).map((c) => c.id);
    expect(await channels("U0GUEST")).toEqual(["C0ALERTS", "C0DEMO"]);
    expect(await channels("U0SOLO")).toEqual(["C0ALERTS"]);
    expect(await channels("U0BOB")).toContain("C0GENERAL");
  });
});

describe("users.conversations", () => {
  it("answers the channels a person is in, private ones only where the bot is too", async () => {
    const ws = workspace();
    const ids = async (user: string, types = "public_channel,private_channel") =>
      (
        (await ws.call("users.conversations", { user, types, exclude_archived: true })).body.channels as {
          id: string;
        }[]
      ).map((c) => c.id);
    expect(await ids("U0ALICE")).toContain("C0PRIVATE");
    expect(await ids("U0BOB")).not.toContain("C0PRIVATE");
    expect(await ids("U0BOB")).toContain("C0ALERTS");
    expect(await ids("U0ALICE", "public_channel")).not.toContain("C0PRIVATE");
    expect(await ids("U0ALICE")).not.toContain("C0ARCHIVED");
    expect((await ws.call("users.conversations", { user: "U0NOBODY" })).body).toEqual({
      ok: false,
      error: "user_not_found",
    });
  });

  it("pages with limit and cursor", async () => {
    const ws = workspace();
    const first = (await ws.call("users.conversations", { user: "U0ALICE", limit: 2 })).body;
    expect(first.channels).toHaveLength(2);
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    expect(cursor).not.toBe("");
    const second = (await ws.call("users.conversations", { user: "U0ALICE", limit: 2, cursor })).body;
    expect((second.channels as { id: string }[])[0]?.id).not.toBe(
      (first.channels as { id: string }[])[0]?.id,
    );
  });

  it("refuses a limit above Slack's maximum of 999 as invalid_limit", async () => {
    const ws = workspace();
    expect((await ws.call("users.conversations", { user: "U0ALICE", limit: 1000 })).body).toEqual({
      ok: false,
      error: "invalid_limit",
    });
    expect((await ws.call("users.conversations", { user: "U0ALICE", limit: 999 })).body.ok).toBe(true);
  });
});

describe("conversations.history and conversations.replies", () => {
  it("lists top-level messages newest first and a thread oldest first, never ephemerals", async () => {
    const ws = workspace();
    const first = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "one" });
    await ws.call("chat.postMessage", { channel: "C0DEMO", text: "reply", thread_ts: first.body.ts });
    await ws.call("chat.postMessage", { channel: "C0DEMO", text: "two" });
    await ws.call("chat.postEphemeral", { channel: "C0DEMO", user: "U0BOB", text: "secret" });
    const history = await ws.call("conversations.history", { channel: "C0DEMO" });
    expect((history.body.messages as Array<{ text: string }>).map((m) => m.text)).toEqual(["two", "one"]);
    const replies = await ws.call("conversations.replies", { channel: "C0DEMO", ts: first.body.ts });
    expect((replies.body.messages as Array<{ text: string }>).map((m) => m.text)).toEqual(["one", "reply"]);
  });
});
