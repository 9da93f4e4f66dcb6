import { describe, expect, it } from "vitest";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { button, section, standInUrl, workspace } from "./helpers.ts";

// The stand-in delivers to `botUrl`. Tests cannot listen inside workerd, so the target is the
// stand-in's own echo receiver, and the signature it sent is re-checked here independently.

const secret = "delivery-test-secret";
const echo = `${standInUrl}/__slack/echo?secret=${secret}`;

type Echo = {
  verified: boolean;
  headers: { contentType: string; timestamp: string; signature: string; userAgent: string };
  raw: string;
  form: Record<string, string>;
  payload?: Record<string, unknown> & { actions: Array<Record<string, unknown>> };
};
type Delivered = {
  status: number;
  body: Echo;
  responseUrl: string;
  outcome: string;
  ok?: boolean;
  error?: string;
};

async function deliver(ws: ReturnType<typeof workspace>, path: string, body: Record<string, unknown>) {
  const res = await ws.admin(path, { botUrl: echo, signingSecret: secret, ...body });
  return { status: res.status, body: res.body as unknown as Delivered };
}

describe("slash command delivery", () => {
  it("sends Slack's form fields in Slack's order, signed with the signing secret", async () => {
    const ws = workspace();
    const { body } = await deliver(ws, "commands", {
      command: "/sessions",
      text: "jane@acme.com since:7d",
      channelId: "C0DEMO",
      userId: "U0ALICE",
    });
    expect(body.status).toBe(200);
    expect(body.outcome).toBe("ok");
    const got = body.body;
    expect(got.verified).toBe(true);
    expect(got.headers.contentType).toBe("application/x-www-form-urlencoded");
    expect(Object.keys(got.form)).toEqual([
      "token",
      "team_id",
      "team_domain",
      "channel_id",
      "channel_name",
      "user_id",
      "user_name",
      "command",
      "text",
      "api_app_id",
      "is_enterprise_install",
      "response_url",
      "trigger_id",
    ]);
    const team = await ws.call("auth.test");
    expect(got.form).toMatchObject({
      team_id: team.body.team_id,
      channel_id: "C0DEMO",
      channel_name: "decipher-demo",
      user_id: "U0ALICE",
      user_name: "alice",
      command: "/sessions",
      text: "jane@acme.com since:7d",
      response_url: body.responseUrl,
    });
    // The verification token is not the bot token.
    expect(got.form.token).not.toBe(ws.token);
    const expected = await signSlackRequest(secret, got.raw, Number(got.headers.timestamp));
    expect(got.headers.signature).toBe(expected["X-Slack-Signature"]);
    expect(Math.abs(Number(got.headers.timestamp) - Date.now() / 1000)).toBeLessThan(60);
  });

  it("hands out a working response_url bound to the command's channel and user", async () => {
    const ws = workspace();
    const { body } = await deliver(ws, "commands", {
      command: "/decipher",
      text: "help",
      channelId: "C0ALERTS",
      userId: "U0BOB",
    });
    const res = await fetch(body.responseUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: "usage" }),
    });
    expect(res.status).toBe(200);
    const [m] = await ws.messages({ channel: "C0ALERTS" });
    expect(m).toMatchObject({ text: "usage", ephemeral: true, visible_to: "U0BOB" });
  });

  it("shows Slackbot's dispatch_failed notice when the bot does not answer 2xx", async () => {
    const ws = workspace();
    const res = await ws.admin("commands", {
      botUrl: `${standInUrl}/__slack/no-such-endpoint`,
      signingSecret: secret,
      command: "/sessions",
      text: "",
      channelId: "C0DEMO",
      userId: "U0ALICE",
    });
    expect(res.body).toMatchObject({ status: 404, outcome: "dispatch_failed" });
    const [m] = await ws.messages({ channel: "C0DEMO" });
    expect(m).toMatchObject({
      user: "USLACKBOT",
      ephemeral: true,
      text: '/sessions failed with the error "dispatch_failed"',
    });
  });

  it("refuses unknown channels and users instead of inventing them", async () => {
    const ws = workspace();
    expect(
      (await deliver(ws, "commands", { command: "/x", channelId: "C0NOPE", userId: "U0ALICE" })).status,
    ).toBe(404);
    expect(
      (await deliver(ws, "commands", { command: "/x", channelId: "C0DEMO", userId: "U0NOBODY" })).status,
    ).toBe(404);
  });
});

describe("button click delivery", () => {
  async function postWithButtons(
    ws: ReturnType<typeof workspace>,
    method: string,
    extra: Record<string, unknown>,
  ) {
    const blocks = [
      section("session card"),
      {
        type: "actions",
        block_id: "card-1",
        elements: [button("timeline", "sess_42", "Timeline"), button("more", "cur_2")],
      },
    ];
    const res = await ws.call(method, { channel: "C0DEMO", text: "card", blocks, ...extra });
    return String(res.body.ts ?? res.body.message_ts);
  }

  it("sends a signed block_actions payload with the button's real value", async () => {
    const ws = workspace();
    const ts = await postWithButtons(ws, "chat.postMessage", {});
    const { body } = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0BOB",
      messageTs: ts,
      actionId: "timeline",
    });
    expect(body.body.verified).toBe(true);
    const payload = body.body.payload;
    expect(payload).toMatchObject({
      type: "block_actions",
      user: { id: "U0BOB", name: "bob" },
      channel: { id: "C0DEMO", name: "decipher-demo" },
      container: { type: "message", message_ts: ts, channel_id: "C0DEMO", is_ephemeral: false },
      message: { ts, text: "card" },
      response_url: body.responseUrl,
      trigger_id: expect.any(String),
    });
    expect(payload?.actions).toEqual([
      expect.objectContaining({
        action_id: "timeline",
        block_id: "card-1",
        value: "sess_42",
        type: "button",
      }),
    ]);
    expect(Object.keys(body.body.form)).toEqual(["payload"]);
  });

  it("leaves the message out for a button in an ephemeral message, as Slack does", async () => {
    const ws = workspace();
    const ts = await postWithButtons(ws, "chat.postEphemeral", { user: "U0ALICE" });
    const { body } = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: ts,
      actionId: "more",
    });
    expect(body.body.payload?.container).toMatchObject({ is_ephemeral: true, message_ts: ts });
    expect(body.body.payload).not.toHaveProperty("message");
    expect(body.body.payload?.actions[0]).toMatchObject({ value: "cur_2" });
  });

  it("whose response_url can replace the clicked message", async () => {
    const ws = workspace();
    const ts = await postWithButtons(ws, "chat.postEphemeral", { user: "U0ALICE" });
    const { body } = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: ts,
      actionId: "more",
    });
    await fetch(body.responseUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ replace_original: true, text: "page 2" }),
    });
    const messages = await ws.messages({ channel: "C0DEMO" });
    // Replaced, not edited: an ephemeral carries no "(edited)" mark in Slack.
    expect(messages.map((m) => [m.ts, m.text, m.edited])).toEqual([[ts, "page 2", false]]);
  });

  it("errors when the message has no such button or someone else's ephemeral is clicked", async () => {
    const ws = workspace();
    const ts = await postWithButtons(ws, "chat.postEphemeral", { user: "U0ALICE" });
    const noButton = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: ts,
      actionId: "nope",
    });
    expect(noButton).toMatchObject({ status: 404, body: { ok: false, error: "button_not_found" } });
    const notTheirs = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0BOB",
      messageTs: ts,
      actionId: "more",
    });
    expect(notTheirs.status).toBe(404);
  });
});

describe("static_select delivery", () => {
  const option = (text: string, value: string) => ({
    text: { type: "plain_text", text, emoji: true },
    value,
  });
  const snooze = {
    type: "static_select",
    action_id: "triage_snooze",
    placeholder: { type: "plain_text", text: ":sleeping: Snooze…", emoji: true },
    options: [option("for 1 h", "s:1h"), option("until it passes", "s:pass")],
  };

  async function postWithMenu(ws: ReturnType<typeof workspace>) {
    const blocks = [
      section("alert"),
      { type: "actions", block_id: "triage", elements: [button("ack", "ref"), snooze] },
    ];
    const res = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "alert", blocks });
    return String(res.body.ts);
  }

  it("sends the chosen option as selected_option, and in state.values, like Slack", async () => {
    const ws = workspace();
    const ts = await postWithMenu(ws);
    const { status, body } = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: ts,
      actionId: "triage_snooze",
      selectedValue: "s:pass",
    });
    expect(status).toBe(200);
    expect(body.body.verified).toBe(true);
    const payload = body.body.payload;
    expect(payload?.type).toBe("block_actions");
    expect(payload?.actions).toEqual([
      {
        type: "static_select",
        action_id: "triage_snooze",
        block_id: "triage",
        selected_option: option("until it passes", "s:pass"),
        placeholder: snooze.placeholder,
        action_ts: expect.stringMatching(/^\d+\.\d{6}$/),
      },
    ]);
    expect(payload?.state).toEqual({
      values: {
        triage: {
          triage_snooze: { type: "static_select", selected_option: option("until it passes", "s:pass") },
        },
      },
    });
  });

  it("refuses a value the menu does not offer, a menu without a choice, and a choice for a button", async () => {
    const ws = workspace();
    const ts = await postWithMenu(ws);
    const base = { channelId: "C0DEMO", userId: "U0ALICE", messageTs: ts };
    const forged = await deliver(ws, "actions", {
      ...base,
      actionId: "triage_snooze",
      selectedValue: "s:forever",
    });
    expect(forged).toMatchObject({ status: 400, body: { ok: false, error: "option_not_found" } });
    const none = await deliver(ws, "actions", { ...base, actionId: "triage_snooze" });
    expect(none).toMatchObject({ status: 400, body: { ok: false, error: "selected_value_required" } });
    const onButton = await deliver(ws, "actions", { ...base, actionId: "ack", selectedValue: "s:1h" });
    expect(onButton).toMatchObject({ status: 400, body: { ok: false, error: "not_a_select" } });
    // A button click still works, with its value and no selected_option.
    const click = await deliver(ws, "actions", { ...base, actionId: "ack" });
    expect(click.body.body.payload?.actions[0]).toMatchObject({ type: "button", value: "ref" });
    expect(click.body.body.payload?.actions[0]).not.toHaveProperty("selected_option");
  });

  it("finds options inside option_groups", async () => {
    const ws = workspace();
    const grouped = {
      ...snooze,
      options: undefined,
      option_groups: [{ label: { type: "plain_text", text: "Time" }, options: [option("for 4 h", "s:4h")] }],
    };
    const res = await ws.call("chat.postMessage", {
      channel: "C0DEMO",
      text: "alert",
      blocks: [{ type: "actions", block_id: "g", elements: [grouped] }],
    });
    const { body } = await deliver(ws, "actions", {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: String(res.body.ts),
      actionId: "triage_snooze",
      selectedValue: "s:4h",
    });
    expect(body.body.payload?.actions[0]).toMatchObject({ selected_option: option("for 4 h", "s:4h") });
  });
});

describe("echo receiver", () => {
  it("reports a bad signature as unverified", async () => {
    const res = await fetch(echo, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Slack-Request-Timestamp": String(Math.floor(Date.now() / 1000)),
        "X-Slack-Signature": "v0=deadbeef",
      },
      body: "command=%2Fx",
    });
    expect(await res.json()).toMatchObject({ verified: false, reason: "signature mismatch" });
  });
});
