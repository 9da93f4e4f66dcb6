import { describe, expect, it } from "vitest";
import manifest from "../../slack/manifest.yml?raw";
import { SLACK_EVENTS_PATH } from "../../src/slack/app.ts";

describe("slack/manifest.yml", () => {
  it("declares both commands and interactivity on the bot's one Request URL", () => {
    const urls = [...manifest.matchAll(/^\s*(?:url|request_url):\s*(\S+)/gm)].map(
      (m) => new URL(m[1] as string),
    );
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url.pathname).toBe(SLACK_EVENTS_PATH);
    const commands = [...manifest.matchAll(/^\s*- command:\s*(\S+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(["/sessions", "/decipher"]);
    expect(manifest).toMatch(/interactivity:\s*\n\s*is_enabled: true/);
  });

  it("asks for the scopes the bot uses, each with a reason", () => {
    const scopes = [...manifest.matchAll(/^\s*- (commands|chat:[a-z.]+)\s*$/gm)].map((m) => m[1]);
    expect(scopes).toEqual(["commands", "chat:write", "chat:write.public"]);
    for (const scope of scopes) expect(manifest).toMatch(new RegExp(`#[^\\n]*\\n\\s*- ${scope}\\s*\\n`));
  });
});
