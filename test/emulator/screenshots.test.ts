import { describe, expect, it } from "vitest";
import { createEmulatorApp } from "../../dev/emulator/emulator-app.ts";
import { SCREENSHOT_SIZE } from "../../dev/emulator/screenshot-png.ts";
import { SCREENSHOT_TTL_MS, screenshotPath, screenshotSignature } from "../../dev/emulator/views.ts";
import { ACME, getJson, type Json } from "./helpers.ts";

// Screenshot URLs in the sandbox load: the emulator serves the images behind them, and, like
// the vendor's pre-signed URLs, only until `screenshotsExpiresAt`.

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width, height and the inflated pixel rows of an 8-bit palette PNG (checks every chunk's length). */
async function decodePng(bytes: Uint8Array) {
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = view.getUint32(at);
    const type = new TextDecoder().decode(bytes.subarray(at + 4, at + 8));
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  expect(chunks.map((c) => c.type)).toEqual(["IHDR", "PLTE", "IDAT", "IEND"]);
  const ihdr = new DataView((chunks[0] as { data: Uint8Array }).data.slice().buffer);
  const idat = (chunks[2] as { data: Uint8Array }).data;
  const inflated = new Blob([idat.slice()]).stream().pipeThrough(new DecompressionStream("deflate"));
  const raw = new Uint8Array(await new Response(inflated).arrayBuffer());
  return { width: ihdr.getUint32(0), height: ihdr.getUint32(4), raw };
}

type Get = (path: string, key: string) => Promise<Json>;

async function janesClicks(key = ACME, get: Get = getJson) {
  const { data } = await get(`/sessions?userEmail=jane%40acme.com&limit=20`, key);
  const session = data.find((s: Json) => s.hasTimeline) ?? data[0];
  return get(`/sessions/${session.id}/clicks`, key);
}

describe("screenshot URLs", () => {
  it("load as PNG pictures from the emulator, for clicks and for collection error screenshots", async () => {
    const clicks = await janesClicks();
    const first = clicks.data[0];
    const { data } = await getJson("/monitoring/issue-collections/501/sessions?include=screenshots&limit=1");
    for (const url of [first.screenshots.before, first.screenshots.after, data[0].errorScreenshots.main]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const png = await decodePng(new Uint8Array(await res.arrayBuffer()));
      expect({ width: png.width, height: png.height }).toEqual(SCREENSHOT_SIZE);
      // One filter byte and one palette index per pixel, per row.
      expect(png.raw.length).toBe(SCREENSHOT_SIZE.height * (SCREENSHOT_SIZE.width + 1));
    }
  });

  it("stop working at screenshotsExpiresAt with a 403 that says the request has expired", async () => {
    let now = Date.parse("2026-03-02T09:00:00Z");
    const emulator = createEmulatorApp({ seed: 1, now: () => now });
    const get = async (path: string, key: string) => {
      const res = await emulator.app.request(`http://emulator.test/api/v1${path}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      return res.json() as Promise<Json>;
    };
    const clicks = await janesClicks(ACME, get);
    const url = clicks.data[0].screenshots.before as string;
    expect(url.startsWith("http://emulator.test/screenshots/")).toBe(true);
    expect(Date.parse(clicks.screenshotsExpiresAt)).toBe(now + SCREENSHOT_TTL_MS);

    now += SCREENSHOT_TTL_MS - 1000;
    const late = await emulator.app.request(url);
    expect(late.status).toBe(200);
    expect(Number(/max-age=(\d+)/.exec(late.headers.get("cache-control") ?? "")?.[1])).toBeLessThanOrEqual(1);

    now += 1000;
    const expired = await emulator.app.request(url);
    expect(expired.status).toBe(403);
    expect(expired.headers.get("content-type")).toBe("application/xml");
    const body = await expired.text();
    expect(body).toContain("<Code>AccessDenied</Code><Message>Request has expired</Message>");
    expect(body).toContain(`<Expires>${clicks.screenshotsExpiresAt.replace(/\.\d+Z$/, "Z")}</Expires>`);
  });

  it("refuse a changed URL and answer 404 for an object that does not exist", async () => {
    const clicks = await janesClicks();
    const url = new URL(clicks.data[0].screenshots.before);
    const longer = new URL(url);
    longer.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const forged = await fetch(longer);
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("<Code>SignatureDoesNotMatch</Code>");

    const unsigned = await fetch(`${url.origin}${url.pathname}`);
    expect(unsigned.status).toBe(403);

    // A validly signed URL for a session the emulator never had.
    const expires = Math.floor(Date.now() / 1000) + 600;
    const path = screenshotPath("org_acme", "00000000-0000-4000-8000-000000000000", "click-1-before");
    const missing = await fetch(
      `${url.origin}/screenshots${path}?expires=${expires}&sig=${screenshotSignature(path, expires)}`,
    );
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("<Code>NoSuchKey</Code>");
  });
});
