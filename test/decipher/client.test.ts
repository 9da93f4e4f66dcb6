import { describe, expect, it } from "vitest";
import { createVendorClient, type VendorClientOptions } from "../../src/decipher/vendor-client.ts";
import {
  API_KEY,
  failure,
  fakeDecipher,
  type Handler,
  hangUntilAborted,
  json,
  recordingFetch,
  vendorError,
} from "./fake-api.ts";
import {
  clicks,
  collectionSession,
  collectionSessionList,
  SESSION_ID,
  session,
  testRun,
  testRunList,
  timeline,
} from "./fixtures.ts";

const BASE = "https://api.decipher.test";

function setup(handler: Handler, extra: Partial<VendorClientOptions> = {}) {
  const { fetch, calls } = recordingFetch(handler);
  const waits: number[] = [];
  const client = createVendorClient({
    baseUrl: BASE,
    apiKey: API_KEY,
    fetch,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
  return { client, calls, waits };
}

const okRuns: Handler = () => json(200, testRunList([testRun(1)]));

describe("requests", () => {
  it("sends GET with Bearer auth and Accept: application/json to the documented paths", async () => {
    const { client, calls } = setup(fakeDecipher());
    await client.listTestRuns(101);
    await client.listSessions();
    const sessionId = "00000000-0000-4000-8000-000000000001";
    await client.getSessionTimeline(sessionId);
    await client.getSessionClicks(sessionId);
    expect(calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      "GET /api/v1/tests/101/runs",
      "GET /api/v1/sessions",
      `GET /api/v1/sessions/${sessionId}/timeline`,
      `GET /api/v1/sessions/${sessionId}/clicks`,
    ]);
    for (const call of calls) {
      expect(call.headers.get("authorization")).toBe(`Bearer ${API_KEY}`);
      expect(call.headers.get("accept")).toBe("application/json");
    }
  });

  it("joins a base URL with a trailing slash or a path prefix without doubling slashes", async () => {
    const { client, calls } = setup(okRuns, { baseUrl: "https://proxy.test/decipher/" });
    await client.listTestRuns("101");
    expect(calls[0]?.url.href).toBe("https://proxy.test/decipher/api/v1/tests/101/runs");
  });

  it("encodes test-run filters with the vendor's names; Dates and ISO strings become UTC ISO 8601", async () => {
    const { client, calls } = setup(okRuns);
    await client.listTestRuns(101, {
      status: "failed",
      limit: 100,
      cursor: "abc+/=",
      since: new Date("2026-02-16T05:00:00.000Z"),
      until: "2026-02-16T07:30:00+02:00",
    });
    const q = calls[0]?.url.searchParams;
    expect(Object.fromEntries(q ?? [])).toEqual({
      status: "failed",
      limit: "100",
      cursor: "abc+/=",
      since: "2026-02-16T05:00:00.000Z",
      until: "2026-02-16T05:30:00.000Z",
    });
  });

  it("reads zoneless and date-only bounds as UTC, whatever the machine's zone", async () => {
    const { client, calls } = setup(okRuns);
    await client.listTestRuns(101, { since: "2026-02-16", until: "2026-02-16 05:30" });
    expect(calls[0]?.url.searchParams.get("since")).toBe("2026-02-16T00:00:00.000Z");
    expect(calls[0]?.url.searchParams.get("until")).toBe("2026-02-16T05:30:00.000Z");
  });

  it("encodes session filters, keeping + and non-ASCII intact", async () => {
    const { client, calls } = setup(() =>
      json(200, { object: "list", data: [], hasMore: false, nextCursor: null }),
    );
    await client.listSessions({
      userEmail: "jane+qa@acme.com",
      userId: "usr_Zoë",
      url: "https://acme.com/checkout?step=2&x=1",
      limit: 1,
    });
    const q = calls[0]?.url.searchParams;
    expect(q?.get("userEmail")).toBe("jane+qa@acme.com");
    expect(q?.get("userId")).toBe("usr_Zoë");
    expect(q?.get("url")).toBe("https://acme.com/checkout?step=2&x=1");
    expect(q?.get("limit")).toBe("1");
    expect(calls[0]?.url.search).toContain("jane%2Bqa%40acme.com");
  });

  it("sends include as a de-duplicated comma list, and nothing when it is empty", async () => {
    const { client, calls } = setup(() => json(200, collectionSessionList([])));
    await client.listCollectionSessions(501, {
      include: ["screenshots", "timeline", "screenshots"],
      limit: 50,
    });
    await client.listCollectionSessions("501", { include: [] });
    expect(calls[0]?.url.pathname).toBe("/api/v1/monitoring/issue-collections/501/sessions");
    expect(calls[0]?.url.searchParams.get("include")).toBe("screenshots,timeline");
    expect(calls[0]?.url.searchParams.get("limit")).toBe("50");
    expect(calls[1]?.url.search).toBe("");
  });
});

describe("input validation (nothing is sent)", () => {
  const cases: [string, (c: ReturnType<typeof setup>["client"]) => Promise<unknown>, string][] = [
    ["non-numeric test id", (c) => c.listTestRuns("abc"), "testId"],
    ["zero test id", (c) => c.listTestRuns(0), "testId"],
    ["fractional test id", (c) => c.listTestRuns(1.5), "testId"],
    ["path-injecting test id", (c) => c.listTestRuns("101/../../sessions"), "testId"],
    ["negative collection id", (c) => c.listCollectionSessions(-1), "collectionId"],
    ["session id not a UUID", (c) => c.getSessionTimeline("abc"), "sessionId"],
    ["session id with a path", (c) => c.getSessionClicks(`${SESSION_ID}/../x`), "sessionId"],
    ["limit 0", (c) => c.listTestRuns(101, { limit: 0 }), "limit"],
    ["limit 101", (c) => c.listSessions({ limit: 101 }), "limit"],
    ["limit 51 on collection sessions", (c) => c.listCollectionSessions(501, { limit: 51 }), "limit"],
    ["fractional limit", (c) => c.listSessions({ limit: 2.5 }), "limit"],
    ["limit as a string", (c) => c.listSessions({ limit: "10" as unknown as number }), "limit"],
    ["unknown status", (c) => c.listTestRuns(101, { status: "broken" as "all" }), "status"],
    ["unknown include", (c) => c.listCollectionSessions(501, { include: ["video" as "clicks"] }), "include"],
    [
      "include not a list",
      (c) => c.listCollectionSessions(501, { include: "timeline" as unknown as ["timeline"] }),
      "include",
    ],
    ["since not a date", (c) => c.listSessions({ since: "yesterday" }), "since"],
    ["invalid Date", (c) => c.listSessions({ until: new Date("nope") }), "until"],
    ["since after until", (c) => c.listSessions({ since: "2026-02-17", until: "2026-02-16" }), "until"],
    ["empty cursor", (c) => c.listSessions({ cursor: "" }), "cursor"],
    ["blank email", (c) => c.listSessions({ userEmail: "  " }), "userEmail"],
    ["misspelt filter", (c) => c.listSessions({ userMail: "x" } as never), "userMail"],
    ["status on sessions", (c) => c.listSessions({ status: "failed" } as never), "status"],
  ];
  for (const [name, call, field] of cases) {
    it(`rejects ${name} naming ${field}`, async () => {
      const { client, calls } = setup(okRuns);
      const error = await failure(call(client));
      expect(error.type).toBe("invalid_request");
      expect(error.isValidation()).toBe(true);
      expect(error.field).toBe(field);
      expect(error.status).toBeNull();
      expect(error.message).toContain(field);
      expect(calls).toHaveLength(0);
    });
  }

  it("accepts the edges of each range", async () => {
    const { client, calls } = setup(okRuns);
    await client.listTestRuns("  7 ", { limit: 1 });
    await client.listTestRuns(7, { limit: 100, status: "running" });
    expect(calls).toHaveLength(2);
    expect(calls[0]?.url.pathname).toBe("/api/v1/tests/7/runs");
  });

  it("rejects bad client options without echoing the key", () => {
    const bad = "dcp_live secret with spaces";
    expect(() => createVendorClient({ baseUrl: BASE, apiKey: bad })).toThrow(/apiKey/);
    try {
      createVendorClient({ baseUrl: BASE, apiKey: bad });
    } catch (error) {
      expect(String(error)).not.toContain("secret");
    }
    expect(() => createVendorClient({ baseUrl: "ftp://x", apiKey: API_KEY })).toThrow(/baseUrl/);
    expect(() => createVendorClient({ baseUrl: BASE, apiKey: API_KEY, retry: { attempts: 0 } })).toThrow(
      /retry\.attempts/,
    );
  });
});

describe("retries", () => {
  it("retries a 429 once, waiting exactly the Retry-After seconds", async () => {
    const { client, calls, waits } = setup((_, n) =>
      n === 1
        ? vendorError(429, "rate_limit_error", "Slow down", { headers: { "Retry-After": "2" } })
        : okRuns(_, n, undefined),
    );
    const list = await client.listTestRuns(101);
    expect(list.data).toHaveLength(1);
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it("honours Retry-After as an HTTP-date", async () => {
    const now = Date.parse("2026-02-16T05:00:00Z");
    const { client, waits } = setup(
      (_, n) =>
        n === 1
          ? vendorError(429, "rate_limit_error", "Slow down", {
              headers: { "Retry-After": "Mon, 16 Feb 2026 05:00:03 GMT" },
            })
          : okRuns(_, n, undefined),
      { now: () => now },
    );
    await client.listTestRuns(101);
    expect(waits).toEqual([3000]);
  });

  it("does not wait out a Retry-After above the cap: throws the rate-limit error at once", async () => {
    const { client, calls, waits } = setup(
      () => vendorError(429, "rate_limit_error", "Slow down", { headers: { "Retry-After": "120" } }),
      { retry: { maxRetryAfterMs: 10_000 } },
    );
    const error = await failure(client.listTestRuns(101));
    expect(error.isRateLimited()).toBe(true);
    expect(error.isTransient()).toBe(true);
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.attempts).toBe(1);
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("backs off with full jitter when a 429 has no Retry-After", async () => {
    const { client, calls, waits } = setup(() => vendorError(429, "rate_limit_error", "Slow down"), {
      retry: { baseDelayMs: 100 },
    });
    const error = await failure(client.listTestRuns(101));
    expect(error.status).toBe(429);
    expect(calls).toHaveLength(3);
    // random() = 0.5 of ceilings 100 and 200
    expect(waits).toEqual([50, 100]);
  });

  for (const status of [500, 502, 503]) {
    it(`retries ${status} up to the attempt limit and reports the attempts`, async () => {
      const { client, calls, waits } = setup(() => vendorError(status, "api_error", "Internal error"), {
        retry: { attempts: 4, baseDelayMs: 200, maxDelayMs: 500 },
      });
      const error = await failure(client.listSessions());
      expect(error.status).toBe(status);
      expect(error.type).toBe("api_error");
      expect(error.isRetryable()).toBe(true);
      expect(error.attempts).toBe(4);
      expect(calls).toHaveLength(4);
      expect(waits).toEqual([100, 200, 250]);
    });
  }

  it("recovers when a 503 is followed by a success", async () => {
    const { client, calls } = setup((_, n) =>
      n < 3 ? new Response("<html>Service Unavailable</html>", { status: 503 }) : okRuns(_, n, undefined),
    );
    const list = await client.listTestRuns(101);
    expect(list.test.id).toBe(101);
    expect(calls).toHaveLength(3);
  });

  for (const [status, type, helper] of [
    [400, "invalid_request_error", "isValidation"],
    [401, "authentication_error", "isAuthentication"],
    [403, "authorization_error", "isAuthorization"],
    [404, "not_found_error", "isNotFound"],
    [422, "validation_error", "isValidation"],
  ] as const) {
    it(`never retries ${status} ${type}`, async () => {
      const { client, calls, waits } = setup(() =>
        vendorError(status, type, "Nope", { field: status === 422 ? "limit" : undefined }),
      );
      const error = await failure(client.listTestRuns(101));
      expect(calls).toHaveLength(1);
      expect(waits).toEqual([]);
      expect(error.status).toBe(status);
      expect(error.type).toBe(type);
      expect(error.isRetryable()).toBe(false);
      expect(error.isTransient()).toBe(false);
      if (helper !== "isValidation" || status === 422) expect(error[helper]()).toBe(true);
      if (status === 422) expect(error.field).toBe("limit");
    });
  }

  it("maps vendor errors to the helpers and a readable message", async () => {
    const { client } = setup(fakeDecipher());
    const notFound = await failure(client.getSessionTimeline(SESSION_ID));
    expect(notFound.isNotFound()).toBe(true);
    expect(notFound.code).toBe("not_found");
    expect(notFound.operation).toBe("getSessionTimeline");
    expect(notFound.message).toBe("Decipher API error 404 not_found_error: Session or timeline not found");
  });

  it("derives the type from the status when the error body is not JSON", async () => {
    const { client } = setup(() => new Response("Unauthorized", { status: 401 }));
    const error = await failure(client.listSessions());
    expect(error.isAuthentication()).toBe(true);
    expect(error.type).toBe("authentication_error");
  });

  it("times out a request that never answers, and retries it", async () => {
    const { client, calls } = setup((_, __, signal) => hangUntilAborted(signal), { timeoutMs: 20 });
    const started = Date.now();
    const error = await failure(client.listSessions());
    expect(error.type).toBe("timeout_error");
    expect(error.status).toBeNull();
    expect(error.isRetryable()).toBe(true);
    expect(error.attempts).toBe(3);
    expect(calls).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("gives the attempt after a 5xx its own timeout", async () => {
    // ofetch hands a retry the first attempt's signal, whose timer is already cleared.
    const { client, calls } = setup(
      (_, n, signal) => (n === 1 ? vendorError(503, "api_error", "Busy") : hangUntilAborted(signal)),
      { timeoutMs: 20, retry: { attempts: 2 } },
    );
    const error = await failure(client.listSessions());
    expect(error.type).toBe("timeout_error");
    expect(error.attempts).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it("times out a response whose body stalls after the headers", async () => {
    const { client } = setup(
      (_, __, signal) => {
        const body = new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"object":"list",'));
            signal?.addEventListener("abort", () =>
              controller.error(new DOMException("aborted", "AbortError")),
            );
          },
        });
        return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
      },
      { timeoutMs: 30, retry: { attempts: 1 } },
    );
    const error = await failure(client.listSessions());
    expect(error.type).toBe("timeout_error");
  });

  it("retries network errors and reports network_error", async () => {
    const { client, calls } = setup(() => {
      throw new TypeError("Network connection lost.");
    });
    const error = await failure(client.listSessions());
    expect(error.type).toBe("network_error");
    expect(error.status).toBeNull();
    expect(error.message).toContain("Network connection lost.");
    expect(calls).toHaveLength(3);
  });
});

describe("response validation", () => {
  it("rejects malformed JSON without retrying", async () => {
    const { client, calls } = setup(() => new Response('{"object":"list","data":[', { status: 200 }));
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("invalid_response");
    expect(error.message).toContain("not valid JSON");
    expect(error.isRetryable()).toBe(false);
    expect(error.isTransient()).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it("sets aside a run it cannot read, naming its field, and keeps the others", async () => {
    const runs = [testRun(1), testRun(2), testRun(3), { ...testRun(4), status: "cancelled" }];
    const { client } = setup(() => json(200, testRunList(runs as never)));
    const page = await client.listTestRuns(101);
    expect(page.data.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(page.rejected).toEqual([expect.objectContaining({ index: 3, id: 4, field: "data[3].status" })]);
  });

  it("names the bad field path of a wrong shape", async () => {
    const { client } = setup(() => json(200, { ...testRunList([testRun(1)]), hasMore: "yes" }));
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("invalid_response");
    expect(error.field).toBe("hasMore");
    expect(error.message).toContain("hasMore");
  });

  it("names a missing nested field and a wrong nested type", async () => {
    const { object: _, ...noObject } = timeline();
    let result = await failure(setup(() => json(200, noObject)).client.getSessionTimeline(SESSION_ID));
    expect(result.field).toBe("object");
    const bad = timeline();
    (bad.pages[0] as { clickCount: unknown }).clickCount = "7";
    result = await failure(setup(() => json(200, bad)).client.getSessionTimeline(SESSION_ID));
    expect(result.field).toBe("pages[0].clickCount");
    const wrongKind = { ...clicks(), object: "sessionTimeline" };
    result = await failure(setup(() => json(200, wrongKind)).client.getSessionClicks(SESSION_ID));
    expect(result.field).toBe("object");
  });

  it("accepts the documented nulls, and absent nullable fields as null", async () => {
    const running = testRun(9, {
      status: "running",
      endTime: null,
      durationMs: null,
      summary: { oneLineSummary: "", firstFailedStepNumber: null },
    });
    const body = testRunList([running, testRun(8, { summary: null })]) as Record<string, unknown>;
    delete body.nextCursor;
    const { client } = setup(() => json(200, body));
    const list = await client.listTestRuns(101);
    expect(list.nextCursor).toBeNull();
    expect(list.data[0]?.endTime).toBeNull();
    expect(list.data[0]?.summary?.firstFailedStepNumber).toBeNull();
    expect(list.data[1]?.summary).toBeNull();

    const s = setup(() =>
      json(200, {
        object: "list",
        data: [session(SESSION_ID, { duration: null })],
        hasMore: false,
        nextCursor: null,
      }),
    );
    expect((await s.client.listSessions()).data[0]?.duration).toBeNull();
    const c = setup(() => json(200, { ...clicks(), screenshotsExpiresAt: null }));
    expect((await c.client.getSessionClicks(SESSION_ID)).screenshotsExpiresAt).toBeNull();
  });

  it("tolerates unknown extra fields at every level", async () => {
    const item = {
      ...collectionSession(SESSION_ID),
      sentiment: "angry",
      clicks: [{ ...clicks().data[0], x: 1 }],
    };
    const body = {
      ...collectionSessionList([item as never]),
      includes: ["clicks"],
      requestId: "r1",
      apiVersion: 2,
    };
    const { client } = setup(() => json(200, body));
    const list = await client.listCollectionSessions(501, { include: ["clicks"] });
    expect(list.collection.id).toBe(501);
    expect(list.data[0]?.clicks?.[0]?.timestamp).toBe(71.2);
    expect(list.data[0]?.timeline).toBeUndefined();
  });

  it("returns a full timeline and clicks unchanged", async () => {
    const { client } = setup((call) =>
      json(200, call.url.pathname.endsWith("/timeline") ? timeline() : clicks()),
    );
    expect(await client.getSessionTimeline(SESSION_ID)).toEqual(timeline());
    expect(await client.getSessionClicks(SESSION_ID)).toEqual(clicks());
  });
});

describe("the API key never leaks", () => {
  const leaks: [string, Handler][] = [
    ["an error message echoing it", () => vendorError(401, "authentication_error", `Invalid key ${API_KEY}`)],
    ["an error field echoing it", () => vendorError(422, "validation_error", "bad", { field: API_KEY })],
    [
      "a network error quoting the header",
      () => {
        throw new TypeError(`connect failed for Authorization: Bearer ${API_KEY}`);
      },
    ],
    ["a wrong shape quoting it", () => json(200, { ...timeline(), object: API_KEY })],
  ];
  for (const [name, handler] of leaks) {
    it(`is redacted from ${name}`, async () => {
      const { client } = setup(handler, { retry: { attempts: 1 } });
      const error = await failure(client.getSessionTimeline(SESSION_ID));
      const everything = [
        error.message,
        String(error.stack),
        JSON.stringify(error),
        String(error.field),
      ].join("\n");
      expect(everything).not.toContain(API_KEY);
      expect(Object.keys(error)).not.toContain("cause");
      // ofetch's FetchError holds the request options, Authorization header included.
      expect("options" in error || "request" in error).toBe(false);
    });
  }
});
