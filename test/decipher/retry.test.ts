import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY, nextDelay, parseRetryAfter } from "../../src/decipher/retry.ts";
import { isVendorApiError, VendorApiError } from "../../src/decipher/vendor-errors.ts";

const err = (status: number | null, type: string, retryAfterMs: number | null = null) =>
  new VendorApiError("x", { status, type, retryAfterMs });

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-02-16T05:00:00Z");
  it.each([
    ["3", 3000],
    ["0", 0],
    [" 1.5 ", 1500],
    ["Mon, 16 Feb 2026 05:00:10 GMT", 10_000],
    ["Mon, 16 Feb 2026 04:59:00 GMT", 0],
    ["soon", null],
    ["-5", null],
  ])("%j → %j ms", (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
  it("is null when absent", () => expect(parseRetryAfter(null, now)).toBeNull());
});

describe("nextDelay", () => {
  it("keeps full-jitter backoff within [0, min(max, base·2^(n-1))) and stops at the attempt limit", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.constantFrom(500, 502, 503, 504),
        (attempt, r, status) => {
          const policy = { ...DEFAULT_RETRY, attempts: 6 };
          const delay = nextDelay(err(status, "api_error"), attempt, policy, () => r);
          if (attempt >= 6) return delay === null;
          const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
          return delay !== null && delay >= 0 && delay <= ceiling && delay === Math.floor(r * ceiling);
        },
      ),
    );
  });

  it("uses Retry-After up to the cap and gives up above it", () => {
    expect(nextDelay(err(429, "rate_limit_error", 4000), 1, DEFAULT_RETRY, () => 0)).toBe(4000);
    expect(nextDelay(err(429, "rate_limit_error", 5001), 1, DEFAULT_RETRY, () => 0)).toBeNull();
  });

  it("never retries non-transient errors", () => {
    for (const [status, type] of [
      [400, "invalid_request_error"],
      [401, "authentication_error"],
      [404, "not_found_error"],
      [422, "validation_error"],
      [200, "invalid_response"],
      [null, "invalid_request"],
    ] as const) {
      expect(nextDelay(err(status, type), 1, DEFAULT_RETRY, () => 0.5)).toBeNull();
    }
  });

  it("retries timeouts and network errors", () => {
    expect(nextDelay(err(null, "timeout_error"), 1, DEFAULT_RETRY, () => 0.5)).toBe(125);
    expect(nextDelay(err(null, "network_error"), 2, DEFAULT_RETRY, () => 0.5)).toBe(250);
  });
});

describe("VendorApiError", () => {
  it("answers each helper from status or type", () => {
    const e = (status: number | null, type: string) => new VendorApiError("m", { status, type });
    expect(e(401, "authentication_error").isAuthentication()).toBe(true);
    expect(e(null, "authentication_error").isAuthentication()).toBe(true);
    expect(e(403, "authorization_error").isAuthorization()).toBe(true);
    expect(e(404, "not_found_error").isNotFound()).toBe(true);
    expect(e(422, "validation_error").isValidation()).toBe(true);
    expect(e(null, "invalid_request").isValidation()).toBe(true);
    expect(e(429, "rate_limit_error").isRateLimited()).toBe(true);
    expect(e(404, "not_found_error").isRateLimited()).toBe(false);
    expect(e(500, "api_error").isRetryable()).toBe(true);
    expect(e(200, "invalid_response").isRetryable()).toBe(false);
    expect(e(200, "invalid_response").isTransient()).toBe(true);
    expect(e(401, "authentication_error").isTransient()).toBe(false);
  });

  it("is recognised by isVendorApiError and serialises to plain data", () => {
    const error = new VendorApiError("Decipher API error 404 not_found_error: gone", {
      status: 404,
      type: "not_found_error",
      code: "not_found",
      operation: "listTestRuns",
    });
    expect(isVendorApiError(error)).toBe(true);
    expect(isVendorApiError(new Error("x"))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "VendorApiError",
      message: "Decipher API error 404 not_found_error: gone",
      status: 404,
      type: "not_found_error",
      code: "not_found",
      field: null,
      retryAfterMs: null,
      operation: "listTestRuns",
      attempts: 0,
    });
  });
});
