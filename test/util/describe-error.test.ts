import { describe, expect, it } from "vitest";
import { VendorApiError } from "../../src/decipher/vendor-errors.ts";
import { describeError } from "../../src/util/describe-error.ts";

// A logged error says what failed ("poll of … failed: Error" said nothing), and still keeps
// out what must never be logged.

describe("describeError", () => {
  it("says what failed: the class and its message", () => {
    expect(describeError(new Error("Durable Object reset because its code was updated."))).toBe(
      "Error: Durable Object reset because its code was updated.",
    );
    expect(describeError(new TypeError("cannot read properties of undefined"))).toBe(
      "TypeError: cannot read properties of undefined",
    );
  });

  it("names the vendor error's type, status and operation", () => {
    const error = new VendorApiError("Decipher answered 503", {
      status: 503,
      type: "api_error",
      operation: "listTestRuns",
    });
    expect(describeError(error)).toBe(
      "VendorApiError: Decipher answered 503 (api_error, HTTP 503, in listTestRuns)",
    );
  });

  it("keeps response_url paths, tokens, keys, emails and quoted text out of the line", () => {
    const line = describeError(
      new Error(
        'fetch https://hooks.slack.com/actions/T1/123/abcSECRET failed with xoxb-1-2-secret, key dcp_live_SECRET, Bearer SECRET2, for jane@acme.com: "what she typed"',
      ),
    );
    expect(line).toBe(
      "Error: fetch https://hooks.slack.com/… failed with xox…, key dcp_…, Bearer …, for <email>: “…”",
    );
    expect(line).not.toMatch(/SECRET|abc|jane|typed/);
  });

  it("keeps a long message to one short line", () => {
    const line = describeError(new Error(`first line\n${"x".repeat(500)}`));
    expect(line.length).toBeLessThanOrEqual("Error: ".length + 160);
    expect(line).not.toContain("\n");
  });

  it("describes what is not an Error", () => {
    expect(describeError("object unreachable")).toBe("object unreachable");
    expect(describeError(undefined)).toBe("unknown error");
  });
});

const sources = import.meta.glob("../../src/**/*.ts", { query: "?raw", import: "default", eager: true });

describe("every logged error", () => {
  it("says what failed: no log line names only the error's class, as 'poll of … failed: Error' did", () => {
    const files = Object.entries(sources).filter(([path]) => !path.endsWith(".d.ts"));
    expect(files.length).toBeGreaterThan(50);
    const classOnly = /\b(?:error|err|e)\.name\b|\$\{(?:error|err|e)\}|String\((?:error|err|e)\)/;
    const logs = files.flatMap(([path, text]) =>
      [...String(text).matchAll(/console\.(?:error|warn|log)\(([\s\S]*?)\);/g)].map((m) => ({
        path,
        line: (m[1] ?? "").replace(/\s+/g, " "),
      })),
    );
    expect(logs.length).toBeGreaterThan(20);
    expect(logs.filter(({ line }) => classOnly.test(line))).toEqual([]);
  });
});
