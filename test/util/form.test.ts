import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readForm } from "../../src/util/form.ts";

/** The platform's reading: URLSearchParams' entries, each name keeping its first value. */
function platform(text: string): Record<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) if (!out.has(name)) out.set(name, value);
  return Object.fromEntries(out);
}
/** Compared as JSON: a lone surrogate in a failure message could not cross the test pool's socket. */
const same = (text: string) => expect(JSON.stringify(readForm(text))).toBe(JSON.stringify(platform(text)));

// Pieces a form body is made of, weighted toward what trips a parser up.
const piece = fc.oneof(
  fc.constantFrom(
    "&",
    "=",
    "+",
    "%",
    "%2",
    "%20",
    "%2B",
    "%26",
    "%3D",
    "%E2%80%94",
    "%FF",
    "%zz",
    "__proto__",
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "grapheme", maxLength: 4 }),
);

describe("readForm", () => {
  it("reads a slash command as Slack sends it", () => {
    const form = readForm(
      "token=t&team_id=T1&channel_id=C1&user_id=U1&command=%2Fsessions&text=jane%40acme.com+since%3A7d&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1%2F1%2Fx",
    );
    expect(form.command).toBe("/sessions");
    expect(form.text).toBe("jane@acme.com since:7d");
    expect(form.response_url).toBe("https://hooks.slack.com/commands/T1/1/x");
  });

  it("reads any body as URLSearchParams does: malformed escapes, lone surrogates, repeated names", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        same(pieces.join(""));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps the first of a repeated field, as slack-edge reads a request", () => {
    expect(readForm("command=%2Fdecipher&command=x&payload=%7B%7D&payload=not-json")).toEqual({
      command: "/decipher",
      payload: "{}",
    });
    expect(readForm("a=%zz&a=1")).toEqual({ a: "%zz" });
  });

  it("reads a lone surrogate as U+FFFD, as URLSearchParams does", () => {
    expect(readForm("a=\uD800&b=\uDC00x")).toEqual({ a: "\uFFFD", b: "\uFFFDx" });
  });

  it("keeps a field named __proto__ as a field, and inherits nothing", () => {
    const form = readForm("__proto__=x&command=%2Fdecipher");
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(readForm("a=1").toString).toBeUndefined();
    expect(Object.keys(form)).toEqual(["__proto__", "command"]);
    expect(form.command).toBe("/decipher");
  });
});
