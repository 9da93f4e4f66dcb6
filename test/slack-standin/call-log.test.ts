import { describe, expect, it } from "vitest";
import { callApi, section, standInUrl, workspace } from "./helpers.ts";

describe("call log", () => {
  it("records every call with method, decoded params, status and error", async () => {
    const ws = workspace();
    await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "hi", blocks: [section("b")] });
    await ws.call("chat.postMessage", { channel: "C0NOPE", text: "hi" });
    const calls = await ws.calls();
    expect(calls).toMatchObject([
      { method: "chat.postMessage", status: 200, ok: true, params: { channel: "C0ALERTS", text: "hi" } },
      { method: "chat.postMessage", status: 200, ok: false, error: "channel_not_found" },
    ]);
    // Blocks sent as a JSON string in the form are decoded for assertions.
    expect(calls[0]?.params.blocks).toEqual([expect.objectContaining({ type: "section" })]);
  });

  it("never stores the token, whether sent as a header or a form field", async () => {
    const ws = workspace();
    await ws.call("auth.test");
    await callApi("chat.postMessage", { token: ws.token, channel: "C0DEMO", text: "x" });
    const raw = await (
      await fetch(`${standInUrl}/__slack/calls?botToken=${encodeURIComponent(ws.token)}`)
    ).text();
    expect(JSON.parse(raw).calls).toHaveLength(2);
    expect(raw).not.toContain(ws.token);
  });

  it("filters by method", async () => {
    const ws = workspace();
    await ws.call("auth.test");
    await ws.call("users.info", { user: "U0BOB" });
    const res = await fetch(
      `${standInUrl}/__slack/calls?botToken=${encodeURIComponent(ws.token)}&method=users.info`,
    );
    const { calls } = (await res.json()) as { calls: Array<{ method: string }> };
    expect(calls.map((c) => c.method)).toEqual(["users.info"]);
  });
});
