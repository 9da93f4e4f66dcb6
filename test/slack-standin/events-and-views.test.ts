import { describe, expect, it } from "vitest";
import { section, standInUrl, workspace } from "./helpers.ts";

const LINK = "https://app.decipher.test/tests/101";

async function postedMessage(
  ws: ReturnType<typeof workspace>,
  text = `see ${LINK} and https://example.com/x`,
) {
  const res = await ws.admin("user-messages", {
    channelId: "C0ALERTS",
    userId: "U0ALICE",
    text,
    deliver: false,
  });
  expect(res.status).toBe(200);
  return res.body as unknown as {
    message: { ts: string; links: string[] };
    events: Array<{ type: string; event_id: string; team_id: string; event: Record<string, unknown> }>;
  };
}

describe("a person's message → Events API payloads", () => {
  it("sends link_shared with only the app's unfurl domains, in Slack's envelope", async () => {
    const ws = workspace();
    const { message, events } = await postedMessage(ws);
    expect(message.links).toEqual([LINK]);
    expect(events).toHaveLength(1);
    const [envelope] = events;
    expect(envelope).toMatchObject({ type: "event_callback", api_app_id: "A0DECIPHER" });
    expect(envelope?.event_id).toMatch(/^Ev[A-Z0-9]{10}$/);
    expect(envelope?.event).toMatchObject({
      type: "link_shared",
      channel: "C0ALERTS",
      user: "U0ALICE",
      message_ts: message.ts,
      links: [{ domain: "app.decipher.test", url: LINK }],
    });
  });

  it("turns @Decipher into a mention token and sends app_mention (with thread_ts in a thread)", async () => {
    const ws = workspace();
    const { message: parent } = await postedMessage(ws, "hello");
    const res = await ws.admin("user-messages", {
      channelId: "C0ALERTS",
      text: "@Decipher help",
      threadTs: parent.ts,
      deliver: false,
    });
    const events = res.body.events as Array<{ event: Record<string, unknown> }>;
    expect(events.map((e) => e.event.type)).toEqual(["app_mention"]);
    expect(events[0]?.event).toMatchObject({ text: "<@U0DECIPHER> help", thread_ts: parent.ts });
  });

  it("sends nothing for a plain message", async () => {
    const { events } = await postedMessage(workspace(), "just chatting");
    expect(events).toEqual([]);
  });
});

describe("chat.unfurl", () => {
  it("stores unfurls on the message for the links it shared", async () => {
    const ws = workspace();
    const { message } = await postedMessage(ws);
    const res = await ws.call("chat.unfurl", {
      channel: "C0ALERTS",
      ts: message.ts,
      unfurls: { [LINK]: { blocks: [section("Checkout flow")] } },
    });
    expect(res.body).toEqual({ ok: true });
    const [stored] = (await ws.messages({ channel: "C0ALERTS" })).filter((m) => m.ts === message.ts);
    // Slack gives each block a block_id, which a click in the unfurl names.
    expect((stored as unknown as { unfurls: Record<string, unknown> }).unfurls).toEqual({
      [LINK]: { blocks: [{ ...section("Checkout flow"), block_id: expect.any(String) }] },
    });
  });

  it("accepts unfurl_id + source as Slack names composer messages", async () => {
    const ws = workspace();
    const { events } = await postedMessage(ws);
    const event = events[0]?.event as { unfurl_id: string; source: string };
    const res = await ws.call("chat.unfurl", {
      unfurl_id: event.unfurl_id,
      source: event.source,
      unfurls: { [LINK]: { blocks: [section("x")] } },
    });
    expect(res.body.ok).toBe(true);
    const bad = await ws.call("chat.unfurl", {
      unfurl_id: "nope",
      source: "composer",
      unfurls: { [LINK]: { blocks: [] } },
    });
    expect(bad.body.error).toBe("invalid_unfurl_id");
  });

  it.each([
    ["no unfurls", {}, "missing_unfurls"],
    ["unfurls that are not JSON", { unfurls: "{nope" }, "invalid_unfurls_format"],
    [
      "a URL the message did not share",
      { unfurls: { "https://app.decipher.test/tests/9": { blocks: [] } } },
      "cannot_unfurl_url",
    ],
    [
      "blocks over Slack's limits",
      { unfurls: { [LINK]: { blocks: [section("x".repeat(3001))] } } },
      "invalid_blocks",
    ],
  ])("refuses %s", async (_name, params, error) => {
    const ws = workspace();
    const { message } = await postedMessage(ws);
    const res = await ws.call("chat.unfurl", { channel: "C0ALERTS", ts: message.ts, ...params });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: false, error });
  });

  it("refuses an unknown message or channel", async () => {
    const ws = workspace();
    const unfurls = { [LINK]: { blocks: [section("x")] } };
    expect((await ws.call("chat.unfurl", { channel: "C0ALERTS", ts: "1.000001", unfurls })).body.error).toBe(
      "cannot_find_message",
    );
    expect((await ws.call("chat.unfurl", { channel: "C0NOPE", ts: "1.000001", unfurls })).body.error).toBe(
      "channel_not_found",
    );
  });
});

describe("views.publish", () => {
  const home = (blocks: unknown[]) => ({ type: "home", blocks });

  it("stores the user's Home view and returns it with an id", async () => {
    const ws = workspace();
    const res = await ws.call("views.publish", { user_id: "U0ALICE", view: home([section("hi")]) });
    expect(res.body).toMatchObject({ ok: true, view: { type: "home", id: expect.stringMatching(/^V/) } });
    const views = await (
      await fetch(`${standInUrl}/__slack/views?botToken=${ws.token}&userId=U0ALICE`)
    ).json();
    expect((views as { home: { blocks: unknown[] } }).home.blocks).toEqual([
      { ...section("hi"), block_id: expect.any(String) },
    ]);
  });

  it("accepts 100 blocks and refuses 101, naming the pointer", async () => {
    const ws = workspace();
    const hundred = Array.from({ length: 100 }, () => ({ type: "divider" }));
    expect((await ws.call("views.publish", { user_id: "U0ALICE", view: home(hundred) })).body.ok).toBe(true);
    const res = await ws.call("views.publish", {
      user_id: "U0ALICE",
      view: home([...hundred, { type: "divider" }]),
    });
    expect(res.body.error).toBe("invalid_arguments");
    expect(JSON.stringify(res.body.response_metadata)).toContain(
      "no more than 100 items allowed [json-pointer:/view/blocks]",
    );
  });

  it.each([
    ["no user_id", { view: { type: "home", blocks: [] } }, "invalid_arguments"],
    ["an unknown user", { user_id: "U0NOBODY", view: { type: "home", blocks: [] } }, "user_not_found"],
    ["a modal type", { user_id: "U0ALICE", view: { type: "modal", blocks: [] } }, "invalid_arguments"],
    ["a view that is not JSON", { user_id: "U0ALICE", view: "{" }, "invalid_arguments"],
  ])("refuses %s", async (_name, params, error) => {
    expect((await workspace().call("views.publish", params)).body.error).toBe(error);
  });
});

describe("views.open", () => {
  const modal = {
    type: "modal",
    callback_id: "find_sessions",
    title: { type: "plain_text", text: "Find sessions" },
    submit: { type: "plain_text", text: "Find" },
    blocks: [
      {
        type: "input",
        block_id: "email",
        label: { type: "plain_text", text: "Email" },
        element: { type: "plain_text_input", action_id: "value" },
      },
    ],
  };
  const trigger = async (ws: ReturnType<typeof workspace>, ageSeconds = 0) =>
    String((await ws.admin("trigger-ids", { userId: "U0ALICE", ageSeconds })).body.triggerId);

  it("opens a modal for a fresh trigger_id, once", async () => {
    const ws = workspace();
    const triggerId = await trigger(ws);
    const res = await ws.call("views.open", { trigger_id: triggerId, view: modal });
    expect(res.body).toMatchObject({ ok: true, view: { type: "modal", callback_id: "find_sessions" } });
    expect((await ws.call("views.open", { trigger_id: triggerId, view: modal })).body.error).toBe(
      "exchanged_trigger_id",
    );
  });

  it("refuses unknown and expired trigger_ids", async () => {
    const ws = workspace();
    expect((await ws.call("views.open", { trigger_id: "1.2.3", view: modal })).body.error).toBe(
      "invalid_trigger_id",
    );
    expect((await ws.call("views.open", { trigger_id: await trigger(ws, 4), view: modal })).body.error).toBe(
      "expired_trigger_id",
    );
  });

  it("refuses a title over 24 characters and inputs without a submit button", async () => {
    const ws = workspace();
    const long = await ws.call("views.open", {
      trigger_id: await trigger(ws),
      view: { ...modal, title: { type: "plain_text", text: "x".repeat(25) } },
    });
    expect(long.body.error).toBe("invalid_arguments");
    const { submit: _drop, ...noSubmit } = modal;
    const res = await ws.call("views.open", { trigger_id: await trigger(ws), view: noSubmit });
    expect(JSON.stringify(res.body)).toContain("submit");
  });

  it("builds the view_submission payload with the inputs' values", async () => {
    const ws = workspace();
    await ws.call("views.open", { trigger_id: await trigger(ws), view: modal });
    const res = await ws.admin("view-submissions", {
      userId: "U0ALICE",
      values: { email: "jane@acme.com" },
      deliver: false,
    });
    expect(res.body.payload).toMatchObject({
      type: "view_submission",
      view: {
        callback_id: "find_sessions",
        state: { values: { email: { value: { value: "jane@acme.com" } } } },
      },
    });
  });
});

describe("someone of another organization in a shared channel (POST /__slack/users with teamId)", () => {
  it("their mention and link name their team, delivered to this workspace's installation; their command names their team", async () => {
    const ws = workspace();
    const own = (await ws.call("auth.test")).body.team_id;
    await ws.admin("channels/share", { channelId: "C0ALERTS" });
    await ws.admin("users", { userId: "U0HANK", teamId: "T0GLOBEX", channels: ["C0ALERTS"] });
    const res = await ws.admin("user-messages", {
      channelId: "C0ALERTS",
      userId: "U0HANK",
      text: `@Decipher sessions jane@acme.com ${LINK}`,
      deliver: false,
    });
    const events = res.body.events as Array<Record<string, unknown> & { event: Record<string, unknown> }>;
    expect(events.map((e) => e.event.type)).toEqual(["app_mention", "link_shared"]);
    for (const envelope of events) {
      expect(envelope.team_id).toBe("T0GLOBEX");
      expect(envelope.is_ext_shared_channel).toBe(true);
      expect((envelope.authorizations as Array<{ team_id: string }>)[0]?.team_id).toBe(own);
    }
    expect(events[0]?.event).toMatchObject({ user: "U0HANK", user_team: "T0GLOBEX" });

    const echo = `${standInUrl}/__slack/echo?secret=s`;
    const command = await ws.admin("commands", {
      botUrl: echo,
      signingSecret: "s",
      command: "/decipher",
      text: "list",
      channelId: "C0ALERTS",
      userId: "U0HANK",
    });
    expect((command.body.body as { form: Record<string, string> }).form.team_id).toBe("T0GLOBEX");
  });
});
