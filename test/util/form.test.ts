import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readForm } from "../../src/util/form.ts";

/** What the Slack edge read before: the platform's parser, a repeated name keeping its last value. */
const platform = (text: string) => Object.fromEntries(new URLSearchParams(text));

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

  it("reads any body as URLSearchParams does, malformed escapes and repeated names included", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        expect(readForm(text)).toEqual(platform(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps a field named __proto__ as a field, not as the record's prototype", () => {
    const form = readForm("__proto__=x&command=%2Fdecipher");
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
    expect(Object.keys(form)).toEqual(["__proto__", "command"]);
    expect(form.command).toBe("/decipher");
  });
});
