const PLUS = /\+/g;

/**
 * An `application/x-www-form-urlencoded` body as a record, read the way URLSearchParams reads
 * it: one leading `?` is dropped, `+` is a space, percent escapes are decoded, a name without
 * `=` has the value "", empty pieces are skipped, and a repeated name keeps its last value (as
 * `Object.fromEntries` of URLSearchParams would). Done in JavaScript because every slash
 * command is read on the ack path, and URLSearchParams, crossing into the platform once per
 * field, cost more than the whole read (BENCHMARKS.md, "The Slack edge: what a help ack
 * costs above the floor"). A body with a malformed escape is left to URLSearchParams, which keeps such an
 * escape as written rather than refusing it.
 */
export function readForm(text: string): Record<string, string> {
  const out: Record<string, string> = {};
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
      if (name === null || value === null) return Object.fromEntries(new URLSearchParams(text));
      // An own field even when named __proto__, as Object.fromEntries makes it.
      if (name === "__proto__")
        Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
      else out[name] = value;
    }
    start = end + 1;
  }
  return out;
}

function decode(piece: string): string | null {
  const spaced = piece.includes("+") ? piece.replace(PLUS, " ") : piece;
  if (!spaced.includes("%")) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return null;
  }
}
