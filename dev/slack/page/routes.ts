import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Hono } from "hono";
import { POLL_EVERYTHING_CRON } from "../../../src/model/poll-clock.ts";

// The sandbox page: a chat UI over the stand-in's own /__slack/* API, plus two
// controls the bot's side needs — fire the cron now, and fire it at a given time (the page's
// "Digest now" schedules a digest for the next minute, then asks for a poll just after it).
// Node only (reads the page's files); mounted by standin-app.ts.

const ASSETS: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "blocks.js": "text/javascript; charset=utf-8",
  "charts.js": "text/javascript; charset=utf-8",
  "mrkdwn.js": "text/javascript; charset=utf-8",
  "style.css": "text/css; charset=utf-8",
};

const asset = (name: string) => readFile(new URL(`./${name}`, import.meta.url), "utf8");

/**
 * The page's emoji font: Twemoji as a colour (COLR) web font from the twemoji-colr-font
 * devDependency, so emoji show in colour in any browser, headless Chromium on a bare Linux
 * included, with nothing installed but `npm ci`. Null when the package is missing.
 */
async function emojiFont(): Promise<Uint8Array | null> {
  try {
    const path = createRequire(import.meta.url).resolve("twemoji-colr-font/twemoji.woff2");
    return new Uint8Array(await readFile(path));
  } catch {
    return null;
  }
}

export type PageConfig = { botUrl?: string; appUrl?: string; fetch?: typeof fetch };

export function pageRoutes(config: PageConfig) {
  const app = new Hono();
  const doFetch = config.fetch ?? fetch;
  const pending = new Set<ReturnType<typeof setTimeout>>();

  const fireCron = async (): Promise<{ ok: boolean; status: number; error?: string }> => {
    if (!config.botUrl) return { ok: false, status: 0, error: "no botUrl configured" };
    // Every subscription now, not only the watchdog's expired clocks (src/model/poll-clock.ts).
    const url = new URL(`/__scheduled?cron=${POLL_EVERYTHING_CRON}`, config.botUrl);
    try {
      const res = await doFetch(url, { signal: AbortSignal.timeout(60_000) });
      await res.text();
      return { ok: res.ok, status: res.status };
    } catch (e) {
      return { ok: false, status: 0, error: e instanceof Error ? e.message : String(e) };
    }
  };

  app.get("/", async (c) => c.html(await asset("index.html"), 200, { "Cache-Control": "no-store" }));

  app.get("/page/:file", async (c) => {
    const name = c.req.param("file");
    const type = ASSETS[name];
    if (!type || name === "index.html") return c.notFound();
    return c.body(await asset(name), 200, { "Content-Type": type, "Cache-Control": "no-store" });
  });

  app.get("/page/fonts/emoji.woff2", async (c) => {
    const font = await emojiFont();
    if (!font) return c.text("twemoji-colr-font is not installed (npm ci installs it)", 404);
    return c.body(font as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "font/woff2",
      "Cache-Control": "public, max-age=86400",
    });
  });

  // What the page needs to know of the sandbox: where the bot's Decipher links point.
  app.get("/__sandbox/config", (c) => c.json({ ok: true, appUrl: config.appUrl ?? null }));

  // "Poll now": one cron cycle of the bot, awaited.
  app.post("/__sandbox/poll", async (c) => {
    const result = await fireCron();
    return c.json(result, result.ok ? 200 : 502);
  });

  // A poll at a given time (epoch ms, ≤ 5 minutes ahead); survives a page reload.
  app.post("/__sandbox/poll-at", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { at?: unknown };
    const at = typeof body.at === "number" ? body.at : Number.NaN;
    const delay = at - Date.now();
    if (!Number.isFinite(delay) || delay > 5 * 60_000) {
      return c.json({ ok: false, error: "at must be epoch ms within 5 minutes" }, 400);
    }
    const timer = setTimeout(
      () => {
        pending.delete(timer);
        void fireCron();
      },
      Math.max(0, delay),
    );
    timer.unref?.();
    pending.add(timer);
    return c.json({ ok: true, at });
  });

  return app;
}
