/**
 * The one error class of the vendor failure domain: every way a Decipher call can fail
 * (bad input, HTTP error, timeout, network, unexpected body) surfaces as a `VendorApiError`,
 * so callers branch on helpers instead of on status codes and strings.
 */

/** Vendor `error.type` values (docs/decipher-api.md, "Errors") plus the client's own. Open: the vendor list is not exhaustive. */
export type VendorErrorType =
  | "authentication_error"
  | "authorization_error"
  | "not_found_error"
  | "validation_error"
  | "rate_limit_error"
  | "api_error"
  /** No answer within the per-request timeout. */
  | "timeout_error"
  /** The request never got an HTTP answer (DNS, connection refused/reset). */
  | "network_error"
  /** The answer was not JSON, or not the documented shape. */
  | "invalid_response"
  /** The caller's input was rejected before anything was sent. */
  | "invalid_request"
  | (string & {});

export type VendorApiErrorInit = {
  /** HTTP status, or null when there was no HTTP answer (network, timeout, invalid input). */
  status: number | null;
  type: VendorErrorType;
  code?: string | null;
  /** Offending parameter or response field path (`limit`, `data[3].status`). */
  field?: string | null;
  /** The wait the vendor asked for (Retry-After), when it asked. */
  retryAfterMs?: number | null;
  /** Client method that failed (`listTestRuns`), for logs; never contains input values. */
  operation?: string | null;
  /** HTTP attempts made before giving up (0 when nothing was sent). */
  attempts?: number;
};

export class VendorApiError extends Error {
  override readonly name = "VendorApiError";
  readonly status: number | null;
  readonly type: VendorErrorType;
  readonly code: string | null;
  readonly field: string | null;
  readonly retryAfterMs: number | null;
  readonly operation: string | null;
  /** Set by the client's retry loop once it gives up. */
  attempts: number;

  constructor(message: string, init: VendorApiErrorInit) {
    super(message);
    this.status = init.status;
    this.type = init.type;
    this.code = init.code ?? null;
    this.field = init.field ?? null;
    this.retryAfterMs = init.retryAfterMs ?? null;
    this.operation = init.operation ?? null;
    this.attempts = init.attempts ?? 0;
  }

  /** The API key is missing or was rejected (401). */
  isAuthentication(): boolean {
    return this.status === 401 || this.type === "authentication_error";
  }

  /** The key is valid but may not read this resource (403). */
  isAuthorization(): boolean {
    return this.status === 403 || this.type === "authorization_error";
  }

  isNotFound(): boolean {
    return this.status === 404 || this.type === "not_found_error";
  }

  /** Input rejected, either by the vendor (422) or by the client before sending. */
  isValidation(): boolean {
    return this.status === 422 || this.type === "validation_error" || this.type === "invalid_request";
  }

  isRateLimited(): boolean {
    return this.status === 429 || this.type === "rate_limit_error";
  }

  /** Repeating the same request soon may succeed; the client's own retry loop uses this. */
  isRetryable(): boolean {
    return (
      this.isRateLimited() ||
      (this.status !== null && this.status >= 500) ||
      this.type === "timeout_error" ||
      this.type === "network_error"
    );
  }

  /**
   * Nothing is wrong with the request or the configuration: a background job should keep
   * its cursor and try again next cycle. Wider than `isRetryable` because a malformed body
   * is not retried on the spot (it is usually deterministic) yet says nothing permanent
   * about the subscription.
   */
  isTransient(): boolean {
    return this.isRetryable() || this.type === "invalid_response";
  }

  /** Plain data for structured logs; holds nothing the constructor did not get (never the key). */
  toJSON() {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      type: this.type,
      code: this.code,
      field: this.field,
      retryAfterMs: this.retryAfterMs,
      operation: this.operation,
      attempts: this.attempts,
    };
  }
}

/** Name check as a fallback so errors crossing module copies still match. */
export function isVendorApiError(error: unknown): error is VendorApiError {
  return (
    error instanceof VendorApiError ||
    (error instanceof Error && error.name === "VendorApiError" && "type" in error && "status" in error)
  );
}

/** Bad caller input, found before any request was sent. */
export function invalidRequest(field: string, message: string, operation?: string): VendorApiError {
  return new VendorApiError(`Invalid ${field}: ${message}`, {
    status: null,
    type: "invalid_request",
    field,
    operation: operation ?? null,
  });
}
