import { env } from "cloudflare:test";
import { emulatorControl } from "../../dev/emulator/control-client.ts";

/** Talks to the shared emulator over real HTTP, as the bot would. */
export const ACME = "dcp_demo_acme";
export const GLOBEX = "dcp_demo_globex";

export function baseUrl(): string {
  const url = env.DECIPHER_API_URL;
  if (!url) throw new Error("DECIPHER_API_URL is not set by the test setup");
  return url;
}

export function api(path: string, key: string | null = ACME, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set("authorization", `Bearer ${key}`);
  return fetch(`${baseUrl()}/api/v1${path}`, { ...init, headers });
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON is inspected field by field in the tests
export type Json = any;

export async function getJson(path: string, key: string | null = ACME): Promise<Json> {
  const res = await api(path, key);
  if (res.status !== 200) throw new Error(`GET ${path} → ${res.status}: ${await res.text()}`);
  return res.json();
}

export async function errorOf(path: string, key: string | null = ACME, init: RequestInit = {}) {
  const res = await api(path, key, init);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}

/** The emulator's control API through the one client (dev/emulator/control-client.ts). */
export const emulator = emulatorControl(baseUrl());

/** Follows nextCursor while hasMore; returns every page. */
export async function allPages(path: string, key: string = ACME, maxPages = 50): Promise<Json[]> {
  const pages: Json[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page: Json = await getJson(
      cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path,
      key,
    );
    pages.push(page);
    cursor = page.hasMore ? page.nextCursor : null;
    if (pages.length > maxPages) throw new Error("pagination did not end");
  } while (cursor);
  return pages;
}

export const isIso = (value: unknown) =>
  typeof value === "string" &&
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
  !Number.isNaN(Date.parse(value));

export const isNewestFirst = (times: string[]) =>
  times.every((t, i) => i === 0 || Date.parse(times[i - 1] as string) >= Date.parse(t));
