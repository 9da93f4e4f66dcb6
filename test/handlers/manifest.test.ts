import { describe, expect, it } from "vitest";
import slackPage from "../../docs/using-it-in-slack.md?raw";
import manifest from "../../slack/manifest.yml?raw";
import { EVENT_TYPES, LIFECYCLE_EVENT_TYPES, MANIFEST_NAMES } from "../../src/handlers/events/event-types.ts";
import { SLACK_EVENTS_PATH } from "../../src/handlers/slack-app.ts";
import wranglerToml from "../../wrangler.toml?raw";

/** The items of a YAML list under `key:` (this manifest's simple shape: `- item` lines). */
function listUnder(key: string): string[] {
  const match = new RegExp(`^(\\s*)${key}:\\s*\\n((?:\\1\\s+(?:- .*|#.*)\\n?)+)`, "m").exec(manifest);
  return [...(match?.[2] ?? "").matchAll(/^\s*- (\S+)\s*$/gm)].map((m) => m[1] as string);
}

describe("slack/manifest.yml", () => {
  it("declares both commands, interactivity and events on the bot's one Request URL", () => {
    const urls = [...manifest.matchAll(/^\s*(?:url|request_url):\s*(\S+)/gm)].map(
      (m) => new URL(m[1] as string),
    );
    expect(urls).toHaveLength(4);
    for (const url of urls) expect(url.pathname).toBe(SLACK_EVENTS_PATH);
    const commands = [...manifest.matchAll(/^\s*- command:\s*(\S+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(["/sessions", "/decipher"]);
    expect(manifest).toMatch(/interactivity:\s*\n\s*is_enabled: true/);
  });

  it("subscribes to exactly the event types the bot registers", () => {
    const subscribed = EVENT_TYPES.map((t) => MANIFEST_NAMES[t] ?? t);
    expect(listUnder("bot_events").sort()).toEqual([...subscribed, ...LIFECYCLE_EVENT_TYPES].sort());
  });

  it("is what docs/using-it-in-slack.md says the bot subscribes to", () => {
    // Up to the sentence's end: a period followed by a space or a line end (`message.im` has one inside).
    const sentence = /the bot subscribes to\s+([\s\S]*?)\.(?:\s|$)/.exec(slackPage)?.[1] ?? "";
    const named = [...sentence.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(listUnder("bot_events").sort());
  });

  it("asks for the scopes the bot uses, each with a reason", () => {
    const scopes = listUnder("bot");
    expect(scopes).toEqual([
      "commands",
      "chat:write",
      "chat:write.public",
      "links:read",
      "links:write",
      "app_mentions:read",
      "channels:read",
      "groups:read",
      "metadata.message:read",
      "channels:history",
      "groups:history",
      "channels:join",
      "users:read",
      "im:history",
      "assistant:write",
    ]);
    for (const scope of scopes) expect(manifest).toMatch(new RegExp(`#[^\\n]*\\n\\s*- ${scope}\\s*\\n`));
  });

  it("enables the Home tab and unfurls the host of DECIPHER_APP_URL", () => {
    expect(manifest).toMatch(/app_home:\s*\n(?:\s*#.*\n)*\s*home_tab_enabled: true/);
    const appUrl = /^DECIPHER_APP_URL\s*=\s*"([^"]+)"/m.exec(wranglerToml)?.[1] ?? "";
    expect(listUnder("unfurl_domains")).toEqual([new URL(appUrl).host]);
  });
});
