import type { Hono } from "hono";
import { assistantThreadEvent, eventEnvelope } from "./event-payloads.ts";
import { addMessage, resolveChannel, toInspected } from "./messages.ts";
import type { AssistantThread, User } from "./standin-types.ts";
import { liveStatus, threadKey } from "./web-api-assistant.ts";
import type { Workspace, Workspaces } from "./workspaces.ts";

// `/__slack/assistant/*`: the person's side of Slack's assistant pane. They open it (a new
// thread in their DM with the app → `assistant_thread_started`), move to another channel with
// it open (→ `assistant_thread_context_changed`), and see its threads: prompts, title, status
// line and messages. Their questions are ordinary `POST /__slack/user-messages` with the
// thread's `channelId` and `threadTs` (→ `message.im`).

type Body = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

type Person = { ws: Workspace; user: User };
type Deliver = (body: Body, envelopes: unknown[]) => Promise<unknown[]>;

export type AssistantRouteDeps = {
  workspaces: Workspaces;
  /** The workspace and person a request names, or the error answer. */
  personOf: (body: Body, query: (name: string) => string | undefined) => Person | { error: string };
  deliverAll: Deliver;
};

/** What the pane shows of one thread now. */
function threadView(ws: Workspace, thread: AssistantThread) {
  return {
    channel: thread.channel,
    threadTs: thread.threadTs,
    contextChannelId: thread.contextChannelId,
    title: thread.title,
    promptsTitle: thread.promptsTitle,
    prompts: thread.prompts ?? [],
    status: liveStatus(ws, thread),
    messages: ws.messages
      .filter(
        (m) => m.channel === thread.channel && m.threadTs === thread.threadTs && m.ts !== thread.threadTs,
      )
      .map(toInspected),
  };
}

export function assistantRoutes(app: Hono, deps: AssistantRouteDeps): void {
  const { workspaces, personOf, deliverAll } = deps;

  // The person opens the pane: Slack starts a thread in their DM with the app.
  app.post("/assistant/threads", async (c) => {
    const body = ((await c.req.json().catch(() => ({}))) ?? {}) as Body;
    const who = personOf(body, (n) => c.req.query(n));
    if ("error" in who) return c.json({ ok: false, error: who.error }, 400);
    const { ws, user } = who;
    const dm = resolveChannel(ws, user.id);
    if (!dm) return c.json({ ok: false, error: "channel_not_found" }, 404);
    const parent = addMessage(ws, {
      ts: workspaces.clock.next(),
      channel: dm.id,
      text: "",
      user: user.id,
      ephemeral: false,
      via: "assistant",
    });
    const thread: AssistantThread = {
      userId: user.id,
      channel: dm.id,
      threadTs: parent.ts,
      contextChannelId: str(body.contextChannelId) ?? null,
      prompts: null,
      promptsTitle: null,
      title: null,
      status: null,
    };
    ws.assistantThreads.set(threadKey(dm.id, parent.ts), thread);
    const event = assistantThreadEvent("assistant_thread_started", ws, thread, workspaces.clock.next());
    const envelope = eventEnvelope(ws, event, undefined, { teamId: user.teamId });
    const deliveries = await deliverAll(body, [envelope]);
    return c.json({ ok: true, thread: threadView(ws, thread), events: [envelope], deliveries });
  });

  // The person moves to another channel with the pane open.
  app.post("/assistant/context", async (c) => {
    const body = ((await c.req.json().catch(() => ({}))) ?? {}) as Body;
    const who = personOf(body, (n) => c.req.query(n));
    if ("error" in who) return c.json({ ok: false, error: who.error }, 400);
    const { ws, user } = who;
    const thread = ws.assistantThreads.get(threadKey(`D${user.id.slice(1)}`, str(body.threadTs) ?? ""));
    if (!thread) return c.json({ ok: false, error: "thread_not_found" }, 404);
    thread.contextChannelId = str(body.channelId) ?? null;
    const event = assistantThreadEvent(
      "assistant_thread_context_changed",
      ws,
      thread,
      workspaces.clock.next(),
    );
    const envelope = eventEnvelope(ws, event, undefined, { teamId: user.teamId });
    const deliveries = await deliverAll(body, [envelope]);
    return c.json({ ok: true, events: [envelope], deliveries });
  });

  // What the pane shows: the person's threads, newest last.
  app.get("/assistant/threads", (c) => {
    const who = personOf({}, (n) => c.req.query(n));
    if ("error" in who) return c.json({ ok: false, error: who.error }, 400);
    const { ws, user } = who;
    const threads = [...ws.assistantThreads.values()].filter((t) => t.userId === user.id);
    return c.json({ ok: true, threads: threads.map((t) => threadView(ws, t)) });
  });
}
