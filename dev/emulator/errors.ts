/** An error the API answers with `{ error: { type, code, message, field } }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly field: string | null;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    type: string,
    code: string,
    message: string,
    field: string | null = null,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
    this.field = field;
    this.headers = headers;
  }

  body() {
    return { error: { type: this.type, code: this.code, message: this.message, field: this.field } };
  }

  toResponse(): Response {
    return new Response(JSON.stringify(this.body()), {
      status: this.status,
      headers: { "content-type": "application/json; charset=utf-8", ...this.headers },
    });
  }
}

export const invalid = (field: string, message: string) =>
  new ApiError(422, "validation_error", "invalid_parameter", message, field);

export const notFound = (message: string) => new ApiError(404, "not_found_error", "not_found", message);

export const unauthenticated = (message: string) =>
  new ApiError(401, "authentication_error", "invalid_api_key", message);

export const badControlRequest = (message: string, field: string | null = null) =>
  new ApiError(400, "invalid_request_error", "invalid_request", message, field);

/** 405 for anything but GET: the API is read-only. */
export function methodNotAllowed(method: string): ApiError {
  return new ApiError(
    405,
    "invalid_request_error",
    "method_not_allowed",
    `Method ${method} is not allowed; use GET`,
    null,
    { Allow: "GET" },
  );
}
