import { keys } from "./keys.ts";

type LeaseRecord = { owner: string; until: number };

/**
 * A short lease so two overlapping cycles do not post the same alert. Taken only when a
 * subscription has something to post, so an idle cycle writes nothing. KV is eventually
 * consistent across locations; within one location (where cron invocations of one Worker
 * run back to back) a written lease is visible to the next reader.
 */
export class LeaseStore {
  readonly #kv: KVNamespace;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
  }

  async acquire(subscriptionKey: string, owner: string, now: number, ttlSeconds = 60): Promise<boolean> {
    const key = keys.lease(subscriptionKey);
    const held = await this.#kv.get<LeaseRecord>(key, "json").catch(() => null);
    if (held && held.owner !== owner && held.until > now) return false;
    // KV's minimum TTL is 60 s; `until` lets a shorter lease end early.
    await this.#kv.put(key, JSON.stringify({ owner, until: now + ttlSeconds * 1000 } satisfies LeaseRecord), {
      expirationTtl: Math.max(60, ttlSeconds),
    });
    return true;
  }

  async release(subscriptionKey: string, owner: string): Promise<void> {
    const key = keys.lease(subscriptionKey);
    const held = await this.#kv.get<LeaseRecord>(key, "json").catch(() => null);
    if (held?.owner === owner) await this.#kv.delete(key);
  }
}
