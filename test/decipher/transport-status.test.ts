import { describe, expect, it } from "vitest";
import { clientOn, failure, json } from "./fake-api.ts";
import { testRun, testRunList } from "./fixtures.ts";

describe("an answer that is not 2xx", () => {
  // ofetch treats only 4xx and 5xx as errors: a 3xx that fetch did not follow was parsed as data.
  it("is an error from its status even when its body reads as a page (a 3xx)", async () => {
    const { client, calls } = clientOn(() => json(300, testRunList([testRun(1)])));
    const error = await failure(client.listTestRuns(101));
    expect(error.status).toBe(300);
    expect(error.type).toBe("api_error");
    expect(error.attempts).toBe(1);
    expect(calls).toHaveLength(1);
  });

  // ofetch's request-error hook read `error.name` of whatever fetch rejected with: a rejection
  // that is no object threw a TypeError there, given up at once instead of retried.
  it("retries a transport that rejects with no error at all, and reports network_error", async () => {
    const { client, calls } = clientOn(() => Promise.reject(undefined));
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("network_error");
    expect(error.message).toBe("Could not reach the Decipher API (undefined)");
    expect(error.attempts).toBe(3);
    expect(calls).toHaveLength(3);
  });
});

// Issue #36: a vendor body is read whole into memory; one of hundreds of megabytes (a proxy
// gone wrong, a hostile endpoint) would take the isolate down with it.
describe("an answer larger than the bot reads", () => {
  const huge = () => {
    const chunk = new TextEncoder().encode("x".repeat(1 << 20));
    let sent = 0;
    return new Response(
      new ReadableStream({
        pull(controller) {
          if (sent++ >= 8) controller.close();
          else controller.enqueue(chunk);
        },
      }),
      { status: 200, headers: { "content-type": "application/json" } },
    );
  };

  it("is refused at 5 MB with a clear error, and not asked again", async () => {
    const { client, calls } = clientOn(async () => huge());
    const error = await failure(client.listTestRuns(101));
    expect(error.type).toBe("invalid_response");
    expect(error.message).toBe(
      "The Decipher API sent an answer to listTestRuns larger than 5 MB, which the bot does not read",
    );
    expect(calls).toHaveLength(1);
  });
});
