import { env, runInDurableObject } from "cloudflare:test";
import { beforeEach } from "vitest";

// KV and Durable Objects are shared by the tests of one file; each test starts from an empty
// namespace and an empty directory of registry shards, so a subscription or digest of one test
// can never be polled in the next. (Subscription, channel and registry shard objects are named by
// team, and every test bot has its own Slack workspace, hence its own team id.)
beforeEach(async () => {
  const registry = env.REGISTRY.get(env.REGISTRY.idFromName("registry"));
  await runInDurableObject(registry, (_instance, state) => state.storage.deleteAll());
  let cursor: string | undefined;
  do {
    const page = await env.STATE.list(cursor ? { cursor } : {});
    await Promise.all(page.keys.map((k) => env.STATE.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
});
