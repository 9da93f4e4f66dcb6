import { describe, expect, it } from "vitest";
import { workspace } from "./helpers.ts";

describe("injected faults", () => {
  it("429: HTTP 429 with Retry-After and error ratelimited, for the next `count` calls only", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "429", retryAfter: 7, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" });
      expect(res.status).toBe(429);
      expect(res.headers.get("Retry-After")).toBe("7");
      expect(res.body).toEqual({ ok: false, error: "ratelimited" });
    }
    expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" })).status).toBe(200);
    // The failed attempts stored nothing.
    expect((await ws.messages({ channel: "C0ALERTS" })).length).toBe(1);
  });

  it("500: a server error with HTTP 500", async () => {
    const ws = workspace();
    await ws.admin("faults", { method: "chat.update", kind: "500", count: 1 });
    const res = await ws.call("chat.update", { channel: "C0ALERTS", ts: "1600000000.000100", text: "x" });
    expect(res.status).toBe(500);
    expect(res.body.ok).toBe(false);
  });

  it("error: HTTP 200 with the chosen Slack error", async () => {
    const ws = workspace();
    await ws.admin("faults", {
      method: "chat.postMessage",
      kind: "error",
      error: "channel_not_found",
      count: 1,
    });
    const res = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: false, error: "channel_not_found" });
  });

  it("only affects the method it names and the workspace it was set on", async () => {
    const ws = workspace();
    const other = workspace();
    await ws.admin("faults", { method: "chat.postMessage", kind: "500", count: 1 });
    expect((await ws.call("auth.test")).status).toBe(200);
    expect((await other.call("chat.postMessage", { channel: "C0ALERTS", text: "x" })).status).toBe(200);
    expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" })).status).toBe(500);
  });

  it("rejects a fault without a known kind", async () => {
    const ws = workspace();
    expect((await ws.admin("faults", { method: "chat.postMessage", kind: "teapot" })).status).toBe(400);
  });
});

describe("chat.postMessage rate limit", () => {
  it("is off unless enabled", async () => {
    const ws = workspace();
    for (let i = 0; i < 10; i++) {
      expect((await ws.call("chat.postMessage", { channel: "C0DEMO", text: `${i}` })).status).toBe(200);
    }
  });

  it("when enabled, allows a burst per channel, then answers 429 with Retry-After", async () => {
    const ws = workspace();
    await ws.admin("rate-limit", { perSecond: 1, burst: 2 });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await ws.call("chat.postMessage", { channel: "C0DEMO", text: `${i}` });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get("Retry-After");
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    // Another channel has its own allowance.
    expect((await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "x" })).status).toBe(200);
    await ws.admin("rate-limit", { enabled: false });
    expect((await ws.call("chat.postMessage", { channel: "C0DEMO", text: "x" })).status).toBe(200);
  });
});
