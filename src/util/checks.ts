/**
 * Small checks shared by the Worker and the local tools, one copy each: a plain object, a
 * UUID, an http(s) URL.
 */

/** A plain object (not null, not an array), e.g. parsed JSON before its fields are read. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A UUID of any version (as a pattern fragment, to embed in larger patterns such as link paths). */
export const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** A UUID of any version, in either case: how Decipher names sessions. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`, "i");

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}

/** `value` as a URL when it parses and its scheme is http or https; otherwise null. */
export function parseHttpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url : null;
}
