import { describe, expect, it } from "vitest";
import { admin, workspace } from "./helpers.ts";

describe("workspaces by bot token", () => {
  it("keeps each token's messages and call log to itself", async () => {
    const a = workspace();
    const b = workspace();
    await a.call("chat.postMessage", { channel: "C0DEMO", text: "from a" });
    expect((await a.messages({ channel: "C0DEMO" })).map((m) => m.text)).toEqual(["from a"]);
    expect(await b.messages({ channel: "C0DEMO" })).toEqual([]);
    expect((await b.calls()).length).toBe(0);
  });

  it("gives each token its own team id", async () => {
    const a = await workspace().call("auth.test");
    const b = await workspace().call("auth.test");
    expect(a.body.team_id).not.toBe(b.body.team_id);
  });

  it("seeds every workspace with the same channels and a human message", async () => {
    const ws = workspace();
    const general = await ws.messages({ channel: "C0GENERAL" });
    expect(general.some((m) => m.user === "U0ALICE")).toBe(true);
    for (const id of ["C0GENERAL", "C0ALERTS", "C0DEMO", "C0ARCHIVED", "C0NOTIN"]) {
      expect((await ws.call("conversations.info", { channel: id })).body.ok).toBe(true);
    }
  });

  it("reset forgets one workspace and re-seeds it on next use", async () => {
    const a = workspace();
    const b = workspace();
    await a.call("chat.postMessage", { channel: "C0DEMO", text: "a" });
    await b.call("chat.postMessage", { channel: "C0DEMO", text: "b" });
    expect((await admin("reset", { botToken: a.token })).body.ok).toBe(true);
    expect(await a.messages({ channel: "C0DEMO" })).toEqual([]);
    expect(await a.calls()).toEqual([]);
    expect((await b.messages({ channel: "C0DEMO" })).length).toBe(1);
  });

  it("refuses inspection without a usable botToken", async () => {
    const res = await admin("faults", { botToken: "not-a-bot-token", method: "auth.test", kind: "500" });
    expect(res.status).toBe(400);
    expect(res.body.ok).toBe(false);
  });
});
