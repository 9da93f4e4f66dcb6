/**
 * OpenAPI 3.1 description of the API exactly as this emulator implements it, including the
 * choices the vendor's documentation leaves open (parameter names, defaults, status codes,
 * ordering); docs/decipher-api.md says which of them the bot relies on.
 */
const str = { type: "string" };
const int = { type: "integer" };
const num = { type: "number" };
const bool = { type: "boolean" };
const dateTime = { type: "string", format: "date-time" };
const uuid = { type: "string", format: "uuid" };
const nullable = (schema: object) => ({ oneOf: [schema, { type: "null" }] });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
});

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});
const errors = (...codes: number[]) => {
  const all: Record<number, object> = {
    401: errorResponse("authentication_error: missing or invalid API key"),
    404: errorResponse("not_found_error (code not_found)"),
    405: {
      ...errorResponse("invalid_request_error: only GET is allowed"),
      headers: { Allow: { schema: { type: "string", const: "GET" } } },
    },
    422: errorResponse("validation_error; error.field names the parameter"),
    429: {
      ...errorResponse("rate_limit_error"),
      headers: { "Retry-After": { description: "Seconds to wait", schema: int } },
    },
    500: errorResponse("api_error"),
  };
  return Object.fromEntries(codes.map((c) => [String(c), all[c]]));
};
const query = (name: string, description: string, schema: object) => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});
const path = (name: string, schema: object) => ({ name, in: "path", required: true, schema });
const ok = (description: string, schema: object) => ({
  description,
  content: { "application/json": { schema } },
});
const listOf = (item: string, extra: Record<string, unknown> = {}) =>
  obj({
    object: { const: "list" },
    data: { type: "array", items: ref(item) },
    hasMore: bool,
    nextCursor: nullable(str),
    ...extra,
  });

const cursor = query(
  "cursor",
  "nextCursor of the previous page; opaque, bound to the org and the query",
  str,
);
const since = (d: string) => query("since", `Lower bound, inclusive (ISO 8601). ${d}`, dateTime);
const until = (d: string) => query("until", `Upper bound, inclusive (ISO 8601). ${d}`, dateTime);

const timelineBody = {
  overview: str,
  tags: { type: "array", items: obj({ tag: str, reasoning: str }) },
  pages: { type: "array", items: ref("TimelinePage") },
  loadingIssues: { type: "array", items: ref("LoadingIssue") },
};

export function openApiDocument(requestUrl: string) {
  const server = new URL(requestUrl).origin;
  return {
    openapi: "3.1.0",
    info: {
      title: "Decipher read API (emulator)",
      version: "1.0.0",
      description:
        "Read-only API of sessions, AI timelines, clicks, issue collections and test runs, as the local emulator implements it. Lists are newest first.",
    },
    servers: [{ url: server }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    paths: {
      "/api/v1/tests/{testId}/runs": {
        get: {
          operationId: "listTestRuns",
          summary: "List runs for a test, newest createdAt first",
          parameters: [
            path("testId", { type: "string", pattern: "^[0-9]+$" }),
            query("status", "Status filter", {
              type: "string",
              enum: ["passed", "failed", "running", "all"],
              default: "all",
            }),
            query("limit", "Page size", { type: "integer", minimum: 1, maximum: 100, default: 20 }),
            cursor,
            since("Filters createdAt."),
            until("Filters createdAt."),
          ],
          responses: {
            "200": ok("Runs of the test", listOf("TestRun", { test: ref("TestInfo") })),
            ...errors(401, 404, 405, 422, 429, 500),
          },
        },
      },
      "/api/v1/monitoring/issue-collections/{collectionId}/sessions": {
        get: {
          operationId: "listCollectionSessions",
          summary: "Sessions of an issue collection, newest representativeIssue.latestIssueAt first",
          parameters: [
            path("collectionId", { type: "string", pattern: "^[0-9]+$" }),
            query("limit", "Page size", { type: "integer", minimum: 1, maximum: 50, default: 10 }),
            cursor,
            since("Filters representativeIssue.latestIssueAt; default 24 hours before until."),
            until("Filters representativeIssue.latestIssueAt; default now."),
            query(
              "include",
              "Comma list of timeline, clicks, screenshots (screenshots implies clicks and adds errorScreenshots)",
              {
                type: "string",
                pattern: "^\\s*(timeline|clicks|screenshots)?(\\s*,\\s*(timeline|clicks|screenshots)?)*\\s*$",
              },
            ),
          ],
          responses: {
            "200": ok(
              "Sessions with the collection",
              listOf("CollectionSession", {
                collection: ref("IssueCollection"),
                includes: { type: "array", items: { enum: ["timeline", "clicks", "screenshots"] } },
                window: obj({ since: dateTime, until: dateTime }),
                screenshotsExpiresAt: nullable(dateTime),
              }),
            ),
            ...errors(401, 404, 405, 422, 429, 500),
          },
        },
      },
      "/api/v1/sessions": {
        get: {
          operationId: "listSessions",
          summary: "Session replays of the organization, newest createdAt first",
          parameters: [
            query("limit", "Page size", { type: "integer", minimum: 1, maximum: 100, default: 20 }),
            cursor,
            since("Filters createdAt."),
            until("Filters createdAt."),
            query("userEmail", "Exact email, case-insensitive", str),
            query("userId", "Exact user id", str),
            query("url", "Substring of any URL visited in the session", str),
          ],
          responses: { "200": ok("Sessions", listOf("Session")), ...errors(401, 405, 422, 429, 500) },
        },
      },
      "/api/v1/sessions/{sessionId}/timeline": {
        get: {
          operationId: "getSessionTimeline",
          parameters: [path("sessionId", uuid)],
          responses: {
            "200": ok(
              "AI timeline",
              obj({ object: { const: "sessionTimeline" }, sessionId: uuid, ...timelineBody }),
            ),
            ...errors(401, 404, 405, 422, 429, 500),
          },
        },
      },
      "/api/v1/sessions/{sessionId}/clicks": {
        get: {
          operationId: "getSessionClicks",
          parameters: [path("sessionId", uuid)],
          responses: {
            "200": ok(
              "Clicks with screenshots",
              obj({
                object: { const: "sessionClicks" },
                sessionId: uuid,
                data: { type: "array", items: ref("Click") },
                screenshotsExpiresAt: nullable(dateTime),
              }),
            ),
            ...errors(401, 404, 405, 422, 429, 500),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-API-Key" },
      },
      schemas: {
        Error: obj({
          error: obj({
            type: str,
            code: str,
            message: str,
            field: { ...nullable(str), description: "null when no parameter is at fault" },
          }),
        }),
        TestInfo: obj({ id: int, name: str, url: str }),
        TestRun: obj({
          object: { const: "testRun" },
          id: int,
          testId: int,
          status: { enum: ["passed", "failed", "running"] },
          startTime: dateTime,
          endTime: nullable(dateTime),
          durationMs: nullable(int),
          triggeredBy: str,
          createdAt: dateTime,
          summary: nullable(obj({ oneLineSummary: str, firstFailedStepNumber: nullable(int) })),
          totalSteps: int,
          failedSteps: int,
        }),
        Session: obj({
          object: { const: "session" },
          id: uuid,
          url: str,
          createdAt: dateTime,
          duration: { ...nullable(int), description: "Seconds; null while recording" },
          userEmail: str,
          userId: str,
          userAccount: str,
          browser: str,
          device: str,
          countryCode: str,
          hasTimeline: bool,
        }),
        CollectionSession: {
          allOf: [
            ref("Session"),
            obj(
              {
                userUsername: str,
                userPlan: str,
                userRole: str,
                representativeIssue: obj({
                  errorId: uuid,
                  latestIssueAt: dateTime,
                  shortenedPath: str,
                  fullPath: str,
                  aiSummary: obj({
                    category: str,
                    behavior: str,
                    productFeature: str,
                    errorText: str,
                    reasoning: str,
                  }),
                }),
                timeline: { ...obj(timelineBody), description: "Only with include=timeline and hasTimeline" },
                clicks: {
                  type: "array",
                  items: ref("Click"),
                  description: "Only with include=clicks or screenshots",
                },
                errorScreenshots: {
                  ...obj({ main: str, after: str }),
                  description: "Only with include=screenshots",
                },
              },
              ["timeline", "clicks", "errorScreenshots"],
            ),
          ],
        },
        IssueCollection: obj({
          id: int,
          type: str,
          rootCause: str,
          shortenedPath: str,
          createdAt: dateTime,
          isResolved: bool,
          errorCount: int,
          sessionCount: int,
          estimatedUsers: int,
        }),
        TimelinePage: obj({
          page: str,
          startTime: { ...num, description: "Seconds into the session" },
          endTime: { ...num, description: "Seconds into the session" },
          clickCount: int,
          featuresUsed: { type: "array", items: str },
          activities: {
            type: "array",
            items: obj({
              startTime: dateTime,
              endTime: dateTime,
              summary: str,
              userAction: str,
              userBehavior: str,
            }),
          },
        }),
        LoadingIssue: obj({
          description: str,
          longDescription: str,
          durationInSeconds: num,
          timestamp: { ...num, description: "Seconds into the session" },
        }),
        Click: obj(
          {
            id: int,
            type: str,
            timestamp: { ...num, description: "Seconds into the session" },
            clickCount: int,
            navigationTo: str,
            screenshots: obj({ before: str, after: str }),
            clickText: str,
            clickTag: str,
            clickCssClass: str,
          },
          ["clickText", "clickTag", "clickCssClass"],
        ),
      },
    },
  };
}
