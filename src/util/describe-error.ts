/**
 * One line for a log that says what failed, without what must never be logged: a thrown
 * error's class and message, its message cut to 160 characters with URLs reduced to their
 * origin (a response_url's path is its secret), tokens and keys (`xox…-`, `dcp_…`, Bearer),
 * email addresses and quoted text (a vendor or Slack body may quote what someone typed)
 * replaced. Errors that carry a type or code (the vendor client's, Slack's) show those too.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === "string" ? redact(error) : "unknown error";
  const fields = error as Error & { type?: unknown; status?: unknown; code?: unknown; operation?: unknown };
  const facts = [
    typeof fields.type === "string" ? fields.type : "",
    typeof fields.status === "number" ? `HTTP ${fields.status}` : "",
    typeof fields.code === "string" ? fields.code : "",
    typeof fields.operation === "string" ? `in ${fields.operation}` : "",
  ].filter(Boolean);
  const message = redact(error.message);
  return [`${error.name}${message ? `: ${message}` : ""}`, facts.length > 0 ? `(${facts.join(", ")})` : ""]
    .filter(Boolean)
    .join(" ");
}

const MAX = 160;

function redact(text: string): string {
  const line = text
    .replace(/\bhttps?:\/\/[^\s/"'<>]+[^\s"'<>]*/gi, (url) => {
      try {
        return `${new URL(url).origin}/…`;
      } catch {
        return "<url>";
      }
    })
    // A URL that did not parse is echoed by the parser: it may be a response_url or typed text.
    .replace(/Invalid URL:?[^)\n]*/gi, "Invalid URL")
    .replace(/\bxox[a-z]-[\w-]+/gi, "xox…")
    .replace(/\bdcp_\w+/g, "dcp_…")
    .replace(/\bBearer\s+[\w.~+/=-]+/gi, "Bearer …")
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "<email>")
    .replace(/"[^"]*"|“[^”]*”|(?<!\w)'[^']*'(?!\w)/g, "“…”")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
