import { type Context, Hono } from "hono";
import { screenshotPng } from "../screenshot-png.ts";
import type { Store } from "../store.ts";
import { screenshotPath, screenshotSignature } from "../views.ts";

/**
 * `GET /screenshots/<org>/<session>/<name>.png?expires=…&sig=…`: the images behind the
 * screenshot URLs the API hands out. Like the pre-signed object URLs the vendor's are, a URL
 * works until its `expires` and then answers 403 with an XML error ("Request has expired"); a
 * changed URL is refused (`SignatureDoesNotMatch`), an unknown object is 404 (`NoSuchKey`).
 * No API key: the URL is the permission. Not under /api/v1, so it counts no API request.
 */
export type ScreenshotDeps = { store: Store; now: () => number };

const NAME = /^(click-\d+-(?:before|after)|error-[\w-]+-(?:main|after))\.png$/;
/** Drawn pictures kept for repeated loads (a page re-rendering, several viewers). */
const CACHE_MAX = 200;

function xmlError(c: Context, status: 403 | 404, code: string, message: string, extra = "") {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${extra}</Error>`;
  return c.body(body, status, { "Content-Type": "application/xml" });
}

export function screenshotRoutes(deps: ScreenshotDeps) {
  const app = new Hono();
  const cache = new Map<string, Uint8Array>();

  app.get("/screenshots/:org/:session/:file", async (c) => {
    const { org: orgId, session: sessionId, file } = c.req.param();
    const expiresText = c.req.query("expires");
    const sig = c.req.query("sig");
    if (!expiresText || !sig || !/^\d+$/.test(expiresText)) {
      return xmlError(
        c,
        403,
        "AccessDenied",
        "Query-string authentication requires the expires and sig parameters",
      );
    }
    const name = NAME.exec(file)?.[1];
    const expires = Number(expiresText);
    const path = screenshotPath(orgId, sessionId, name ?? file.replace(/\.png$/, ""));
    if (sig !== screenshotSignature(path, expires)) {
      return xmlError(c, 403, "SignatureDoesNotMatch", "The request signature we calculated does not match");
    }
    const now = deps.now();
    if (now >= expires * 1000) {
      const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");
      return xmlError(
        c,
        403,
        "AccessDenied",
        "Request has expired",
        `<Expires>${at(expires * 1000)}</Expires><ServerTime>${at(now)}</ServerTime>`,
      );
    }
    const org = deps.store.byId(orgId);
    const session = org?.sessions.find((s) => s.id === sessionId);
    if (!name || !session) return xmlError(c, 404, "NoSuchKey", "The specified key does not exist.");
    let png = cache.get(path);
    if (!png) {
      png = await screenshotPng({ name, user: session.userEmail || session.userId });
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
      cache.set(path, png);
    }
    const secondsLeft = Math.max(0, Math.floor((expires * 1000 - now) / 1000));
    return c.body(png as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "image/png",
      // A browser may keep it, but not past the URL's own expiry.
      "Cache-Control": `private, max-age=${Math.min(secondsLeft, 3600)}`,
    });
  });

  return app;
}
