import { UUID_SOURCE } from "../../util/checks.ts";
/**
 * Which shared URLs are Decipher links this bot can explain. Anything else — another domain,
 * another path on the app, an id in the wrong form — is `null`: Slack keeps its own preview.
 */

export type DecipherLink =
  | { kind: "session"; url: string; sessionId: string }
  | { kind: "test"; url: string; testId: number }
  | { kind: "run"; url: string; testId: number; runId: number };

const UUID = UUID_SOURCE;
const ID = "[1-9]\\d{0,15}";
const SESSION = new RegExp(`^/sessions/(${UUID})/?$`, "i");
const TEST = new RegExp(`^/tests/(${ID})/?$`);
const RUN = new RegExp(`^/tests/(${ID})/runs/(${ID})/?$`);

/** At most this many links per message are looked up (the invocation's subrequest budget). */
export const MAX_LINKS_PER_EVENT = 5;

/** Slack may wrap a link as `<url|label>` or escape `&`; the event's `url` is normally raw. */
function unwrap(raw: string): string {
  const inner = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(raw.trim());
  return (inner ? (inner[1] as string) : raw.trim()).replace(/&amp;/g, "&");
}

export function parseDecipherLink(raw: string, appUrl: string): DecipherLink | null {
  let url: URL;
  let app: URL;
  try {
    url = new URL(unwrap(raw));
    app = new URL(appUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.host.toLowerCase() !== app.host.toLowerCase()) return null;
  // An app served under a path prefix (`https://example.com/decipher`) keeps working.
  const prefix = app.pathname.replace(/\/+$/, "");
  if (prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
  const path = url.pathname.slice(prefix.length);
  const session = SESSION.exec(path);
  if (session) return { kind: "session", url: raw, sessionId: (session[1] as string).toLowerCase() };
  const run = RUN.exec(path);
  if (run) return { kind: "run", url: raw, testId: Number(run[1]), runId: Number(run[2]) };
  const test = TEST.exec(path);
  if (test) return { kind: "test", url: raw, testId: Number(test[1]) };
  return null;
}

/** The Decipher links of one event, each URL once, at most `MAX_LINKS_PER_EVENT`. */
export function decipherLinks(urls: readonly string[], appUrl: string): DecipherLink[] {
  const seen = new Set<string>();
  const out: DecipherLink[] = [];
  for (const url of urls) {
    if (seen.has(url)) continue;
    seen.add(url);
    const link = parseDecipherLink(url, appUrl);
    if (link) out.push(link);
    if (out.length === MAX_LINKS_PER_EVENT) break;
  }
  return out;
}
