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
  "assistant.js": "text/javascript; charset=utf-8",
  "blocks.js": "text/javascript; charset=utf-8",
  "charts.js": "text/javascript; charset=utf-8",
  "control-status.js": "text/javascript; charset=utf-8",
  "mention-picker.js": "text/javascript; charset=utf-8",
  "mrkdwn.js": "text/javascript; charset=utf-8",
  "reading-clock.js": "text/javascript; charset=utf-8",
  "suggestions.js": "text/javascript; charset=utf-8",
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

/**
 * Japanese text (names like 山田太郎) the same way: Noto Sans JP from the
 * @fontsource-variable/noto-sans-jp devDependency, in 124 slices by unicode-range, so the browser
 * loads only the slices a page's text needs. Its stylesheet is served with the slices' URLs
 * pointing here. Null when the package is missing.
 */
const CJK_PACKAGE = "@fontsource-variable/noto-sans-jp";
const CJK_SLICE = /^noto-sans-jp-(\d{1,3}|latin|latin-ext|cyrillic|vietnamese)-wght-normal\.woff2$/;

async function cjkFontCss(): Promise<string | null> {
  try {
    const path = createRequire(import.meta.url).resolve(`${CJK_PACKAGE}/index.css`);
    return (await readFile(path, "utf8")).replaceAll("url(./files/", "url(/page/fonts/cjk/");
  } catch {
    return null;
  }
}

async function cjkFontSlice(name: string): Promise<Uint8Array | null> {
  if (!CJK_SLICE.test(name)) return null;
  try {
    const css = createRequire(import.meta.url).resolve(`${CJK_PACKAGE}/index.css`);
    return new Uint8Array(await readFile(new URL(`./files/${name}`, `file://${css}`)));
  } catch {
    return null;
  }
}

/** What the composer suggests in a workspace: ids and a user of its own Decipher organization. */
export type PageExamples = { email: string; testId: number; collectionId?: number; path?: string };

/** A workspace the page can switch to (`?ws=<its key>`), with its own examples. */
export type PageWorkspace = { key: string; botToken: string; label: string; examples?: PageExamples };

/**
 * The name a workspace goes by in the page's URL (`?ws=globex-sandbox`): made from its label,
 * never its bot token, so a URL can be printed, shared and kept in a browser's history.
 */
export function workspaceKey(label: string): string {
  return (
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "workspace"
  );
}

export type PageConfig = {
  botUrl?: string;
  appUrl?: string;
  /** The sandbox's own workspace (the one a request without `botToken` means): its name and examples. */
  workspace?: { label: string; examples?: PageExamples };
  fetch?: typeof fetch;
};

const SANDBOX_LABEL = "Acme Sandbox";

function parseExamples(raw: unknown): PageExamples | undefined | { error: string } {
  if (raw === undefined) return undefined;
  const e = raw as Partial<Record<keyof PageExamples, unknown>>;
  const id = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v > 0;
  if (typeof e !== "object" || e === null || typeof e.email !== "string" || !id(e.testId))
    return { error: "examples needs an email and a testId (a positive integer)" };
  if (e.collectionId !== undefined && !id(e.collectionId))
    return { error: "examples.collectionId must be a positive integer" };
  if (e.path !== undefined && (typeof e.path !== "string" || !e.path.startsWith("/")))
    return { error: "examples.path must start with /" };
  return {
    email: e.email,
    testId: e.testId as number,
    ...(e.collectionId !== undefined ? { collectionId: e.collectionId as number } : {}),
    ...(e.path !== undefined ? { path: e.path as string } : {}),
  };
}

export function pageRoutes(config: PageConfig) {
  const app = new Hono();
  const doFetch = config.fetch ?? fetch;
  const pending = new Set<ReturnType<typeof setTimeout>>();
  // The other workspaces the page offers (WORKSPACES=2 npm start registers Globex's).
  const others = new Map<string, PageWorkspace>();

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

  app.get("/page/fonts/cjk.css", async (c) => {
    const css = await cjkFontCss();
    if (!css)
      return c.text(`/* ${CJK_PACKAGE} is not installed (npm ci installs it) */`, 200, {
        "Content-Type": "text/css",
      });
    return c.body(css, 200, {
      "Content-Type": "text/css; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
    });
  });

  app.get("/page/fonts/cjk/:file", async (c) => {
    const font = await cjkFontSlice(c.req.param("file"));
    if (!font) return c.notFound();
    return c.body(font as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "font/woff2",
      "Cache-Control": "public, max-age=86400",
    });
  });

  // What the page needs to know of the sandbox: where the bot's Decipher links point, the
  // workspaces it can switch between, and the examples of the one it shows (`?ws=<key>`):
  // a workspace's own organization's, none when nobody registered any (never another's). The
  // page addresses that workspace's /__slack/* with the `botToken` it gets here, not from its URL.
  app.get("/__sandbox/config", (c) => {
    const key = c.req.query("ws");
    const other = key ? others.get(key) : undefined;
    const shown = key ? other : config.workspace;
    return c.json({
      ok: true,
      appUrl: config.appUrl ?? null,
      examples: shown?.examples ?? null,
      botToken: other?.botToken ?? null,
      workspaces: [
        { ws: null, label: config.workspace?.label ?? SANDBOX_LABEL },
        ...[...others.values()].map((w) => ({ ws: w.key, label: w.label })),
      ],
    });
  });

  // Another workspace for the page's switcher, with its examples.
  app.post("/__sandbox/workspaces", async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as Partial<Record<keyof PageWorkspace, unknown>>;
    if (typeof body.botToken !== "string" || !body.botToken || typeof body.label !== "string" || !body.label)
      return c.json({ ok: false, error: "botToken and label are required" }, 400);
    const examples = parseExamples(body.examples);
    if (examples && "error" in examples) return c.json({ ok: false, error: examples.error }, 400);
    const key = workspaceKey(body.label);
    others.set(key, {
      key,
      botToken: body.botToken,
      label: body.label,
      ...(examples ? { examples } : {}),
    });
    return c.json({ ok: true });
  });

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
