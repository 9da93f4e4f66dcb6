import { describe, expect, it } from "vitest";
import { createVendorClient } from "../../src/decipher/vendor-client.ts";
import { readUnreadFailures } from "../../src/engine/run-reader.ts";
import { API_KEY, fakeDecipher, recordingFetch } from "../decipher/fake-api.ts";

describe("the unread part of a capped read", () => {
  it("a vendor that ignores since and until: the window stops shrinking and is given up, not read at every poll", async () => {
    // The fake lists every run whatever the time filters say (test/decipher/fake-api.ts).
    const { fetch, calls } = recordingFetch(fakeDecipher({ runs: 1000 }));
    const vendor = createVendorClient({ baseUrl: "https://api.decipher.test", apiKey: API_KEY, fetch });
    let window: { since: string; until: string } | null = {
      since: "2026-02-16T04:00:00.000Z",
      until: "2026-02-16T06:00:00.000Z",
    };
    let reads = 0;
    while (window && reads < 5) {
      window = (await readUnreadFailures(vendor, 101, window)).rest;
      reads++;
    }
    expect(window).toBeNull();
    expect(reads).toBeLessThanOrEqual(2);
    for (const call of calls) expect(call.url.searchParams.get("until")).not.toBeNull();
  });
});
