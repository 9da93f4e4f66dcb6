import { describe, expect, it } from "vitest";
import { button, section, standInUrl, workspace } from "./helpers.ts";

// A `/sessions` reply holds one card per session, each with the same action_ids (Timeline,
// Clicks, Share) and no block_ids of the bot's own. Slack gives every block an id and sends
// the clicked element's own block_id and value; so must the stand-in, or every card's buttons
// would act on the first card.

const secret = "clicked-element-secret";
const echo = `${standInUrl}/__slack/echo?secret=${secret}`;

type Ws = ReturnType<typeof workspace>;
type Action = { action_id: string; block_id: string; value?: string };

/** Two session cards, the way the bot builds them: same action_ids, no block_id. */
const cards = (ids: string[]) =>
  ids.flatMap((id) => [
    section(`session ${id}`),
    { type: "actions", elements: [button("session_timeline", id, "Timeline"), button("session_share", id)] },
  ]);

const actionBlocks = (blocks: Array<Record<string, unknown>> | null | undefined) =>
  (blocks ?? []).filter((b) => b.type === "actions");

async function click(ws: Ws, body: Record<string, unknown>) {
  const res = await ws.admin("actions", { botUrl: echo, signingSecret: secret, ...body });
  const delivered = res.body as unknown as { body?: { payload?: { actions: Action[] } } };
  return { status: res.status, error: res.body.error, action: delivered.body?.payload?.actions[0] };
}

/** The `/sessions` flow: an ephemeral ack, replaced through a response_url bound to it. */
async function sessionsReply(ws: Ws, ids: string[]) {
  const ack = await ws.call("chat.postEphemeral", { channel: "C0DEMO", user: "U0ALICE", text: "Looking…" });
  const minted = await ws.admin("response-urls", {
    channelId: "C0DEMO",
    userId: "U0ALICE",
    messageTs: ack.body.message_ts,
  });
  const res = await fetch(String(minted.body.responseUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ replace_original: true, text: `${ids.length} sessions`, blocks: cards(ids) }),
  });
  expect(res.status).toBe(200);
  const [message] = await ws.messages({ channel: "C0DEMO" });
  if (!message) throw new Error("the reply is missing");
  return message;
}

describe("the clicked element, as Slack names it", () => {
  it("gives every block of a replaced message its own block_id", async () => {
    const ws = workspace();
    const reply = await sessionsReply(ws, ["s-1", "s-2"]);
    const ids = (reply.blocks ?? []).map((b) => b.block_id);
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("delivers the second card's Timeline with the second card's block_id and value", async () => {
    const ws = workspace();
    const reply = await sessionsReply(ws, ["s-1", "s-2"]);
    const second = actionBlocks(reply.blocks)[1];
    const { status, action } = await click(ws, {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: reply.ts,
      actionId: "session_timeline",
      blockId: second?.block_id,
      value: "s-2",
    });
    expect(status).toBe(200);
    expect(action).toMatchObject({ action_id: "session_timeline", block_id: second?.block_id, value: "s-2" });
  });

  it("refuses a click that could be any of several cards' buttons, instead of picking the first", async () => {
    const ws = workspace();
    const reply = await sessionsReply(ws, ["s-1", "s-2"]);
    const { status, error } = await click(ws, {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: reply.ts,
      actionId: "session_timeline",
    });
    expect(status).toBe(400);
    expect(error).toMatch(/^ambiguous_action: 2 elements have action_id session_timeline/);
  });

  it("refuses a value the clicked block's button does not carry", async () => {
    const ws = workspace();
    const reply = await sessionsReply(ws, ["s-1", "s-2"]);
    const first = actionBlocks(reply.blocks)[0];
    const { status, error } = await click(ws, {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: reply.ts,
      actionId: "session_timeline",
      blockId: first?.block_id,
      value: "s-2",
    });
    expect(status).toBe(404);
    expect(error).toBe("button_not_found");
  });

  it("gives new block_ids to blocks that chat.update brings", async () => {
    const ws = workspace();
    const posted = await ws.call("chat.postMessage", { channel: "C0DEMO", text: "1", blocks: cards(["a"]) });
    await ws.call("chat.update", {
      channel: "C0DEMO",
      ts: posted.body.ts,
      text: "2",
      blocks: cards(["a", "b"]),
    });
    const [message] = await ws.messages({ channel: "C0DEMO" });
    const second = actionBlocks(message?.blocks)[1];
    expect(second?.block_id).toEqual(expect.any(String));
    const { action } = await click(ws, {
      channelId: "C0DEMO",
      userId: "U0ALICE",
      messageTs: message?.ts,
      actionId: "session_share",
      blockId: second?.block_id,
    });
    expect(action).toMatchObject({ block_id: second?.block_id, value: "b" });
  });
});
