import { describe, expect, it } from "vitest";
import { describeSessionSearch, parseSessionSearch } from "../../../src/handlers/commands/sessions-query.ts";
import { CommandInputError } from "../../../src/model/command-input-error.ts";

const now = new Date("2026-11-21T12:00:00Z");

describe("/sessions text", () => {
  it("reads an email, a plus-address and Slack's mailto link the same way", () => {
    expect(parseSessionSearch("jane@acme.com", now)).toEqual({ filter: { userEmail: "jane@acme.com" } });
    expect(parseSessionSearch("  jane+qa@acme.com ", now)).toEqual({
      filter: { userEmail: "jane+qa@acme.com" },
    });
    expect(parseSessionSearch("<mailto:józef@acme.com|józef@acme.com>", now)).toEqual({
      filter: { userEmail: "józef@acme.com" },
    });
  });

  it("reads user: and url: filters", () => {
    expect(parseSessionSearch("user:usr_42", now).filter).toEqual({ userId: "usr_42" });
    expect(parseSessionSearch("url:<https://shop.acme.com/checkout>", now).filter).toEqual({
      url: "https://shop.acme.com/checkout",
    });
  });

  it("turns since/until spans and dates into instants", () => {
    const q = parseSessionSearch("jane@acme.com since:7d until:24h", now);
    expect(q.since?.toISOString()).toBe("2026-11-14T12:00:00.000Z");
    expect(q.until?.toISOString()).toBe("2026-11-20T12:00:00.000Z");
    expect(parseSessionSearch("jane@acme.com since:2026-11-01", now).since?.toISOString()).toBe(
      "2026-11-01T00:00:00.000Z",
    );
    expect(parseSessionSearch("jane@acme.com since:2026-11-01T10:00+02:00", now).since?.toISOString()).toBe(
      "2026-11-01T08:00:00.000Z",
    );
  });

  it.each([
    ["", /whose sessions/],
    ["jane", /can't read `jane`/],
    ["jane@acme.com bob@acme.com", /not several/],
    ["jane@acme.com since:yesterday", /not a time I can read/],
    ["jane@acme.com since:1d until:7d", /before `until`/],
    ["since:7d", /whose sessions/],
    ["user:", /needs a user id/],
  ])("explains what is wrong with %j", (text, message) => {
    expect(() => parseSessionSearch(text, now)).toThrowError(CommandInputError);
    expect(() => parseSessionSearch(text, now)).toThrowError(message);
  });

  it("describes a query in words", () => {
    expect(describeSessionSearch(parseSessionSearch("jane@acme.com since:7d", now))).toBe(
      "jane@acme.com since 2026-11-14 12:00 UTC",
    );
    expect(describeSessionSearch({ filter: { url: "/checkout" } })).toBe('URL containing "/checkout"');
  });
});
