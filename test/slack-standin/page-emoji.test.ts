import { describe, expect, it } from "vitest";
import { EMOJI, emojify } from "../../dev/slack/page/mrkdwn.js";

// The sandbox page shows every emoji the bot sends as a picture, never as `:see_no_evil:` text.
// Messages are written in these layers (src/objects only keys its state with `:`-joined names).
const sources = {
  ...import.meta.glob("../../src/messages/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../src/engine/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../src/handlers/**/*.ts", { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../../src/slack-api/**/*.ts", { query: "?raw", import: "default", eager: true }),
};

/** `:name:` where a message string has one: not inside a word, a template value or a URL. */
const SHORTCODE = /(?<![\w}$/:]):([a-z][a-z0-9_+-]*):(?![\w/])/g;

function shortcodesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, text] of Object.entries(sources)) {
    for (const m of text.matchAll(SHORTCODE)) if (m[1] && !found.has(m[1])) found.set(m[1], file);
  }
  return found;
}

describe("the sandbox page's emoji table", () => {
  it("has every emoji shortcode the bot's messages use", () => {
    const found = shortcodesInSources();
    expect(found.size).toBeGreaterThan(20);
    const missing = [...found]
      .filter(([name]) => !(name in EMOJI))
      .map(([name, file]) => `:${name}: (${file})`);
    expect(missing).toEqual([]);
  });

  it("shows :see_no_evil: as the emoji", () => {
    expect(emojify("no replay :see_no_evil:")).toBe("no replay 🙈");
  });
});
