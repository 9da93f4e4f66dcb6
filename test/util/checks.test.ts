import { describe, expect, it } from "vitest";
import { isRecord, isUuid, parseHttpUrl, UUID_PATTERN } from "../../src/util/checks.ts";

describe("isRecord", () => {
  it("accepts plain objects only", () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ a: 1 })).toBe(true);
    for (const value of [null, undefined, [], [1], "x", 1, true]) expect(isRecord(value)).toBe(false);
  });
});

describe("isUuid", () => {
  it("accepts UUIDs of any version and case, nothing around them", () => {
    expect(isUuid("3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f80")).toBe(true);
    expect(isUuid("3F0C1A52-8C1E-4F63-9A7E-2B4D5C6E7F80")).toBe(true);
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
    for (const value of [
      "3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f8",
      " 3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f80",
      "3f0c1a528c1e4f639a7e2b4d5c6e7f80",
      "../../tests/101/runs",
      42,
      null,
    ]) {
      expect(isUuid(value)).toBe(false);
    }
    expect(UUID_PATTERN.flags).toContain("i");
  });
});

describe("parseHttpUrl", () => {
  it("parses http and https URLs", () => {
    expect(parseHttpUrl("https://api.getdecipher.com/x?y=1")?.host).toBe("api.getdecipher.com");
    expect(parseHttpUrl("http://127.0.0.1:8788")?.port).toBe("8788");
  });

  it("refuses other schemes and non-URLs", () => {
    for (const value of [
      "javascript:alert(1)",
      "ftp://x.test/",
      "mailto:a@b.c",
      "not a url",
      "",
      "//x.test",
    ]) {
      expect(parseHttpUrl(value)).toBeNull();
    }
  });
});
