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
    expect(css).toMatch(/:root\s*{[^}]*font-family:\s*"Sandbox Emoji", /);
  });
});

// Japanese names (山田太郎) show as text, not empty boxes, in the same browsers: Noto Sans JP from
// an npm package, in slices the browser loads only when a page's text needs them.
describe("the sandbox page's Japanese font", () => {
  it("is served as a stylesheet of slices, every one a WOFF2 font the stand-in serves too", async () => {
    const res = await fetch(`${standInUrl}/page/fonts/cjk.css`);
    expect(res.headers.get("content-type")).toContain("text/css");
    const css = await res.text();
    expect(css).toContain("font-family: 'Noto Sans JP Variable'");
    const slices = [...css.matchAll(/url\((\/page\/fonts\/cjk\/[^)]+)\)/g)].map((m) => m[1]);
    expect(slices.length).toBeGreaterThan(100);
    const slice = await fetch(`${standInUrl}${slices[0]}`);
    expect(slice.status).toBe(200);
    expect(slice.headers.get("content-type")).toBe("font/woff2");
    expect(new TextDecoder().decode(new Uint8Array(await slice.arrayBuffer()).subarray(0, 4))).toBe("wOF2");
    // The named slices (latin, cyrillic…) too: a page of Latin text asks for them first.
    const missing: string[] = [];
    for (const url of slices)
      if ((await fetch(`${standInUrl}${url}`)).status !== 200) missing.push(url as string);
    expect(missing).toEqual([]);
  });

  it("serves only the package's slices, nothing else by name", async () => {
    expect((await fetch(`${standInUrl}/page/fonts/cjk/index.css`)).status).toBe(404);
    expect((await fetch(`${standInUrl}/page/fonts/cjk/..%2F..%2Fpackage.json`)).status).toBe(404);
  });

  it("is loaded by the page and named after the text fonts, so Latin text keeps its font", async () => {
    const html = await (await fetch(`${standInUrl}/`)).text();
    expect(html).toContain('<link rel="stylesheet" href="/page/fonts/cjk.css">');
    const css = await (await fetch(`${standInUrl}/page/style.css`)).text();
    expect(css).toMatch(
      /:root\s*{[^}]*font-family:\s*"Sandbox Emoji", [^;]*Arial, "Noto Sans JP Variable",\s*sans-serif;/,
    );
  });
});
