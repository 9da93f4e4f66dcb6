import { describe, expect, it } from "vitest";
import { sandboxExamples } from "../../dev/sandbox-examples.ts";
import { workspaceKey } from "../../dev/slack/page/routes.ts";
import { composerPlaceholder, suggestions } from "../../dev/slack/page/suggestions.js";
import { freshToken, standInUrl } from "./helpers.ts";

// `WORKSPACES=2 npm start`: the page of the second workspace (Globex) suggests Globex's own
// tests, collection and users, never Acme's, and the page offers a switcher between the two.

const config = async (ws?: string) =>
  (await (
    await fetch(`${standInUrl}/__sandbox/config${ws ? `?ws=${encodeURIComponent(ws)}` : ""}`)
  ).json()) as {
    examples: unknown;
    botToken: string | null;
    workspaces: { ws: string | null; label: string }[];
  };

const register = (body: unknown) =>
  fetch(`${standInUrl}/__sandbox/workspaces`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("the sandbox page's workspaces", () => {
  it("suggests the Globex workspace's own test, collection and user, and none of Acme's", () => {
    const chips = suggestions("http://127.0.0.1:8788/", sandboxExamples("globex")).join("\n");
    expect(chips).toContain("/sessions hank@globex.com");
    expect(chips).toContain("http://127.0.0.1:8788/tests/201");
    expect(chips).toContain("/decipher subscribe test 201");
    expect(chips).toContain("/decipher subscribe collection 601");
    expect(chips).toContain("/sessions url:/onboarding/step-2 since:7d");
    expect(chips).not.toMatch(/acme|\b10[1-3]\b|\b501\b|\/checkout/);
    expect(composerPlaceholder(sandboxExamples("globex"))).toContain("/sessions hank@globex.com");
  });

  it("suggests Acme's demo ids in the sandbox's own workspace, as the README's quick start does", () => {
    const chips = suggestions(null, sandboxExamples("acme"));
    expect(chips).toContain("/sessions jane@acme.com");
    expect(chips).toContain("/decipher subscribe test 101");
    expect(chips).toContain("/decipher subscribe collection 501");
  });

  it("suggests only commands without ids in a workspace nobody gave examples for", () => {
    const chips = suggestions("http://127.0.0.1:8788", null);
    expect(chips).toEqual(["/decipher help", "/decipher list", "/decipher status", "@Decipher help"]);
  });

  it("names a registered workspace in the page's URL by a key made from its label, never by its bot token", async () => {
    const globex = freshToken();
    const examples = sandboxExamples("globex");
    expect((await register({ botToken: globex, label: "Globex Sandbox", examples })).status).toBe(200);
    const shown = await config(workspaceKey("Globex Sandbox"));
    expect(workspaceKey("Globex Sandbox")).toBe("globex-sandbox");
    expect(shown.examples).toEqual(examples);
    expect(shown.botToken).toBe(globex);
    expect(shown.workspaces[0]).toEqual({ ws: null, label: "Acme Sandbox" });
    expect(shown.workspaces).toContainEqual({ ws: "globex-sandbox", label: "Globex Sandbox" });
    expect(JSON.stringify(shown.workspaces)).not.toContain("xoxb-");
    expect((await config("no-such-workspace")).examples).toBeNull();
  });

  it("refuses a workspace without a label or with examples it cannot use, with the reason", async () => {
    const noLabel = await register({ botToken: freshToken() });
    expect(noLabel.status).toBe(400);
    expect(await noLabel.json()).toEqual({ ok: false, error: "botToken and label are required" });
    const badTest = await register({
      botToken: freshToken(),
      label: "X",
      examples: { email: "a@b", testId: "101" },
    });
    expect(badTest.status).toBe(400);
    expect(((await badTest.json()) as { error: string }).error).toContain("testId (a positive integer)");
  });
});
