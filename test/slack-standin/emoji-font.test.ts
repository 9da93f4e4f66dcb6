import { describe, expect, it } from "vitest";
import { standInUrl } from "./helpers.ts";

// Emoji render in any browser that opens the sandbox page, headless Chromium on a bare Linux
// included: the page brings its own colour emoji font, from an npm package `npm ci` installs.

describe("the sandbox page's emoji font", () => {
  it("is served by the stand-in as a WOFF2 web font", async () => {
    const res = await fetch(`${standInUrl}/page/fonts/emoji.woff2`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("font/woff2");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("wOF2");
    expect(bytes.length).toBeGreaterThan(100_000);
  });

  it("is declared by the page's stylesheet and tried first, for emoji code points only", async () => {
    const css = await (await fetch(`${standInUrl}/page/style.css`)).text();
    const face = /@font-face\s*{([^}]*)}/.exec(css)?.[1] ?? "";
    expect(face).toContain('font-family: "Sandbox Emoji"');
    expect(face).toContain('url("/page/fonts/emoji.woff2")');
    // Digits, # and * stay in the text font: the emoji font only covers emoji ranges.
    const range = /unicode-range:([^;]*);/.exec(face)?.[1] ?? "";
    expect(range).toContain("U+1F000-1FAFF");
    expect(range).not.toMatch(/U\+(0?0)?(23|2A|3\d)\b/i);
    expect(css).toMatch(/:root\s*{[^}]*font-family: "Sandbox Emoji", /);
  });
});
