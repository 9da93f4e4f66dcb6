const PLUS = /\+/g;
/** ES2024's String.prototype.isWellFormed, which tsconfig's ES2023 lib does not declare. */
type Es2024String = string & { isWellFormed(): boolean };

/**
 * An `application/x-www-form-urlencoded` body as a record, read the way URLSearchParams reads
 * it: one leading `?` is dropped, `+` is a space, percent escapes are decoded, a name without
 * `=` has the value "", empty pieces are skipped, and a repeated name keeps its first value (as
 * `get` does, and so slack-edge's own reading of a request). Done in JavaScript because every
 * slash command is read on the ack path, and URLSearchParams, crossing into the platform once
 * per field, cost more than the whole read (BENCHMARKS.md, "The Slack edge: what a help ack
 * costs above the floor"). A body with a malformed escape or a lone surrogate is left to
 * URLSearchParams, which keeps such an escape as written and replaces such a surrogate.
 */
export function readForm(text: string): Record<string, string> {
  // A lone surrogate, which URLSearchParams reads as U+FFFD.
  if (!(text as Es2024String).isWellFormed()) return firstOfEach(new URLSearchParams(text));
  const out = record();
  // URLSearchParams drops one leading "?", as it would of a URL's query.
  let start = text.startsWith("?") ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf("&", start);
    if (end < 0) end = text.length;
    if (end > start) {
      // Searched within the piece only: a search of the whole rest for each piece without `=`
      // would make a body of many such pieces quadratic.
      const piece = text.slice(start, end);
      const eq = piece.indexOf("=");
      const name = decode(eq < 0 ? piece : piece.slice(0, eq));
      const value = eq < 0 ? "" : decode(piece.slice(eq + 1));
      if (name === null || value === null) return firstOfEach(new URLSearchParams(text));
      keepFirst(out, name, value);
    }
    start = end + 1;
  }
  return out;
}

function firstOfEach(params: URLSearchParams): Record<string, string> {
  const out = record();
  for (const [name, value] of params) keepFirst(out, name, value);
  return out;
}

// Values are strings, never undefined: `??=` keeps the first. Nothing is inherited (`record`).
function keepFirst(out: Record<string, string>, name: string, value: string): void {
  out[name] ??= value;
}

/** No prototype: a field named `__proto__` is a field like any other, and nothing is inherited. */
const record = (): Record<string, string> => Object.create(null);

function decode(piece: string): string | null {
  const spaced = piece.includes("+") ? piece.replace(PLUS, " ") : piece;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}
