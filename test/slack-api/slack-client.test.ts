import { SlackAPIClient } from "slack-web-api-client";
import { describe, expect, it, vi } from "vitest";
import { createSlackClient, SlackTimeoutError, slackForm } from "../../src/slack-api/slack-client.ts";
import { classifySlackFailure, classifyWriteFailure } from "../../src/slack-api/slack-errors.ts";
import { type WebApiCall, webApiMethods } from "../../src/slack-api/web-api-methods.ts";
import { BudgetExhaustedError, SubrequestBudget } from "../../src/util/subrequest-budget.ts";
import { apiUrl, section, workspace } from "../slack-standin/helpers.ts";

/** The bot's client on the stand-in, as one workspace's bot. */
const clientOf = (ws: ReturnType<typeof workspace>, options: Parameters<typeof createSlackClient>[1] = {}) =>
  createSlackClient({ slackBotToken: ws.token, slackApiUrl: apiUrl }, options);

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail("the call succeeded"),
    (e: unknown) => e,
  );

/** Every method path of slack-web-api-client's client, with the method name it sends. */
async function libraryMethods(): Promise<Array<[path: string, method: string]>> {
  class Recorder extends SlackAPIClient {
    // biome-ignore lint/suspicious/noExplicitAny: the parent's own signature.
    override async call(name: string): Promise<any> {
      return name;
    }
  }
  const found: Array<[string, string]> = [];
  const walk = async (node: object, path: string) => {
    for (const [key, value] of Object.entries(node)) {
      const at = path ? `${path}.${key}` : key;
      // The file uploads send multipart bodies: not plain Web API calls (SlackClient's type omits them).
      if (at === "files.upload" || at === "files.uploadV2" || key === "retryHandlers") continue;
      if (typeof value === "function") found.push([at, await value({})]);
      else if (value && typeof value === "object") await walk(value, at);
    }
  };
  await walk(new Recorder("xoxb-unused"), "");
  return found;
}

describe("the Web API methods by path", () => {
  it("answers every method of slack-web-api-client's client with a call under its name", async () => {
    const sent: string[] = [];
    const client = webApiMethods(async (method) => {
      sent.push(method);
      return { ok: true, headers: new Headers() };
    });
    // The library sends three admin.* paths under another family's names; the bot sends a path as it is.
    const methods = (await libraryMethods()).filter(([path, method]) => path === method);
    expect(methods.length).toBeGreaterThan(250);
    for (const [path] of methods) {
      const fn = path
        .split(".")
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], client);
      await (fn as (p: object) => Promise<unknown>)({});
    }
    expect(sent).toEqual(methods.map(([path]) => path));
  });

  it("passes the parameters through, and calls by name through `call`", async () => {
    const calls: Array<[string, unknown]> = [];
    const call: WebApiCall = async (method, params) => {
      calls.push([method, params]);
      return { ok: true, headers: new Headers() };
    };
    const client = webApiMethods(call);
    await client.oauth.v2.access({ client_id: "1", client_secret: "s", code: "c" });
    await client.auth.test();
    await client.call("conversations.info", { channel: "C1" });
    expect(calls).toEqual([
      ["oauth.v2.access", { client_id: "1", client_secret: "s", code: "c" }],
      ["auth.test", undefined],
      ["conversations.info", { channel: "C1" }],
    ]);
  });

  it("is no promise and no JSON: awaiting a client, returning it from an async function or stringifying it calls nothing", async () => {
    const sent: string[] = [];
    const client = webApiMethods(async (method) => {
      sent.push(method);
      return { ok: true, headers: new Headers() };
    });
    const same = await (async () => client)();
    expect(same).toBe(client);
    expect(typeof (await client.chat.postMessage)).toBe("function");
    expect(JSON.stringify({ client, chat: client.chat })).toBe('{"client":{}}');
    expect(sent).toEqual([]);
  });
});

describe("the request Slack receives", () => {
  it("is a form: plain arrays joined by commas, objects as JSON text, no empty fields and no token", () => {
    const form = slackForm({
      token: "xoxb-secret",
      channel: "C0ALERTS",
      types: ["public_channel", "private_channel"],
      blocks: [{ type: "divider" }],
      metadata: { event_type: "alert", event_payload: { id: 7 } },
      unfurl_links: false,
      limit: 200,
      thread_ts: undefined,
      icon_url: null,
      attachments: [],
    });
    expect([...form]).toEqual([
      ["channel", "C0ALERTS"],
      ["types", "public_channel,private_channel"],
      ["blocks", '[{"type":"divider"}]'],
      ["metadata", '{"event_type":"alert","event_payload":{"id":7}}'],
      ["unfurl_links", "false"],
      ["limit", "200"],
      ["attachments", "[]"],
    ]);
  });

  it("carries the bot's token, or the one a call names, and its blocks arrive as Block Kit", async () => {
    const ws = workspace();
    const other = workspace();
    const client = clientOf(ws);
    await client.chat.postMessage({
      channel: "C0ALERTS",
      text: "Checkout failed",
      blocks: [section("*Checkout*")],
    });
    await client.auth.test({ token: other.token });
    const [post] = await ws.calls();
    expect(post).toMatchObject({
      method: "chat.postMessage",
      status: 200,
      params: { channel: "C0ALERTS", text: "Checkout failed", blocks: [section("*Checkout*")] },
    });
    expect((await ws.calls()).map((c) => c.method)).toEqual(["chat.postMessage"]);
    expect((await other.calls()).map((c) => c.method)).toEqual(["auth.test"]);
  });

  it("answers with Slack's fields and the response headers", async () => {
    const ws = workspace();
    const me = await clientOf(ws).auth.test();
    expect(me.ok).toBe(true);
    expect(me.user_id).toBe("U0DECIPHER");
    expect(me.headers.get("content-type")).toMatch(/application\/json/);
  });
});

describe("failures, as slack-web-api-client reports them", () => {
  it("ok: false is a SlackAPIError with Slack's error code and answer", async () => {
    const ws = workspace();
    await ws.admin("faults", {
      method: "conversations.info",
      kind: "error",
      error: "channel_not_found",
      count: 1,
    });
    const error = await failureOf(clientOf(ws).conversations.info({ channel: "C0ALERTS" }));
    expect(error).toMatchObject({
      name: "SlackAPIError",
      error: "channel_not_found",
      apiName: "conversations.info",
    });
    expect(classifySlackFailure(error)).toEqual({ kind: "permanent", code: "channel_not_found" });
  });

  it.each([
    ["ok: false without an error", { ok: false }],
    ["no ok at all", { channel: "C0ALERTS", ts: "1700000000.000100" }],
  ])(
    "a 200 that says %s is never taken as done: a retry for a read, an unknown outcome for a post",
    async (_, answer) => {
      const ws = workspace();
      const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json(answer));
      try {
        const error = await failureOf(clientOf(ws).chat.postMessage({ channel: "C0ALERTS", text: "x" }));
        expect(error).toMatchObject({
          name: "SlackAPIError",
          error: "malformed_answer",
          apiName: "chat.postMessage",
        });
        expect(classifySlackFailure(error)).toEqual({ kind: "transient", code: "malformed_answer" });
        expect(classifyWriteFailure(error)).toEqual({ kind: "unknown", code: "malformed_answer" });
      } finally {
        spy.mockRestore();
      }
    },
  );

  it("a non-200 is a SlackAPIConnectionError with its status and Slack's JSON body as text", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "500", count: 1 });
    const error = await failureOf(clientOf(ws).chat.postMessage({ channel: "C0ALERTS", text: "x" }));
    expect(error).toMatchObject({
      name: "SlackAPIConnectionError",
      status: 500,
      apiName: "chat.postMessage",
    });
    expect(JSON.parse((error as { body: string }).body)).toEqual({ ok: false, error: "internal_error" });
    expect(classifySlackFailure(error)).toEqual({ kind: "transient", code: "http_500" });
  });

  it("no answer at all is a SlackAPIConnectionError with status -1 and the cause", async () => {
    // fetch throws without an answer. (A refused port would do too, but workerd then prints an
    // uncaught "Network connection lost." of its own although the client catches the error.)
    const client = createSlackClient({ slackBotToken: "xoxb-x", slackApiUrl: "ftp://127.0.0.1:9/api/" });
    const error = await failureOf(client.auth.test());
    expect(error).toMatchObject({ name: "SlackAPIConnectionError", status: -1 });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});

describe("retries", () => {
  it("waits out a short Retry-After and tries again, at most twice", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "429", retryAfter: 0, count: 3 });
    const error = await failureOf(clientOf(ws).chat.postMessage({ channel: "C0ALERTS", text: "x" }));
    expect(error).toMatchObject({ name: "SlackAPIConnectionError", status: 429 });
    expect((await ws.calls()).map((c) => c.status)).toEqual([429, 429, 429]);
    await ws.admin("faults", { method: "chat.postMessage", kind: "429", retryAfter: 0, count: 1 });
    await clientOf(ws).chat.postMessage({ channel: "C0ALERTS", text: "x" });
    expect((await ws.calls()).map((c) => c.status)).toEqual([429, 429, 429, 429, 200]);
  });

  it("leaves a Retry-After longer than the limit to the caller: one attempt, failed as rate-limited", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "users.info", kind: "429", retryAfter: 6, count: 1 });
    const error = await failureOf(clientOf(ws, { maxRetryAfterSeconds: 5 }).users.info({ user: "U0ALICE" }));
    expect(classifySlackFailure(error)).toEqual({
      kind: "transient",
      code: "ratelimited",
      retryAfterSeconds: 6,
    });
    expect((await ws.calls()).map((c) => c.status)).toEqual([429]);
  });

  it("tries a read once more after a 5xx, and never resends a post", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "conversations.info", kind: "500", count: 1 });
    const info = await clientOf(ws).conversations.info({ channel: "C0ALERTS" });
    expect(info.ok).toBe(true);
    await ws.admin("faults", { method: "conversations.info", kind: "500", count: 2 });
    await failureOf(clientOf(ws).conversations.info({ channel: "C0ALERTS" }));
    await ws.admin("faults", { method: "chat.postMessage", kind: "500", count: 1 });
    await failureOf(clientOf(ws).chat.postMessage({ channel: "C0ALERTS", text: "x" }));
    expect((await ws.calls()).map((c) => `${c.method} ${c.status}`)).toEqual([
      "conversations.info 500",
      "conversations.info 200",
      "conversations.info 500",
      "conversations.info 500",
      "chat.postMessage 500",
    ]);
  });

  it("draws each attempt from the budget, and makes no call the budget cannot pay for", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "users.info", kind: "429", retryAfter: 0, count: 1 });
    const budget = new SubrequestBudget(1);
    const error = await failureOf(clientOf(ws, { budget }).users.info({ user: "U0ALICE" }));
    expect(error).toMatchObject({ name: "SlackAPIConnectionError", status: 429 });
    expect(budget.used).toBe(1);
    const none = await failureOf(clientOf(ws, { budget }).auth.test());
    expect(none).toBeInstanceOf(BudgetExhaustedError);
    expect((await ws.calls()).map((c) => c.status)).toEqual([429]);
  });
});

describe("the deadline", () => {
  it("fails a call Slack has not answered in time with SlackTimeoutError, an unknown outcome", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "hang", delayMs: 2_000, count: 1 });
    const error = await failureOf(
      clientOf(ws, { timeoutMs: 200 }).chat.postMessage({ channel: "C0ALERTS", text: "x" }),
    );
    expect(error).toBeInstanceOf(SlackTimeoutError);
    expect(classifySlackFailure(error)).toEqual({ kind: "unknown", code: "timeout" });
  });

  it("makes no further attempt once it has passed", async () => {
    const ws = workspace();
    // A read's 5xx is retried after 250 ms, past this call's 100 ms.
    await ws.admin("faults", { method: "conversations.info", kind: "500", count: 1 });
    const error = await failureOf(
      clientOf(ws, { timeoutMs: 100 }).conversations.info({ channel: "C0ALERTS" }),
    );
    expect(error).toBeInstanceOf(SlackTimeoutError);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await ws.calls()).map((c) => c.status)).toEqual([500]);
  });
});
