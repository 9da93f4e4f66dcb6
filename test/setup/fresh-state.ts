import { env } from "cloudflare:test";
import { beforeEach } from "vitest";

// KV is shared by the tests of one file; each test starts from an empty namespace so a
// subscription, lease or digest of one test can never leak into the next.
beforeEach(async () => {
  let cursor: string | undefined;
  do {
    const page = await env.STATE.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map((k) => env.STATE.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
});
